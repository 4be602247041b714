import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  serverSchema,
  type Server,
  type ServerCreate,
  type ServerFields,
} from '#shared/servers.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { clientKeys, credentialKeys, serverKeys } from '#client/lib/query-keys.ts';

const serverPath = (id: string, action = '') => `/api/servers/${encodeURIComponent(id)}${action}`;

/**
 * After a write to a server: the server itself, every list of servers, its client (panel,
 * primary server, commands) and the vault (which lists the servers using each credential).
 */
async function refreshAfter(queryClient: QueryClient, server: Server | null, clientId: string) {
  if (server) queryClient.setQueryData(serverKeys.detail(server.id), server);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: serverKeys.all }),
    queryClient.invalidateQueries({ queryKey: clientKeys.detail(clientId) }),
    queryClient.invalidateQueries({ queryKey: credentialKeys.all }),
  ]);
}

export type SaveServerRequest =
  | { kind: 'create'; input: ServerCreate }
  | { kind: 'update'; id: string; version: number; input: ServerFields };

export function useSaveServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveServerRequest): Promise<Server> =>
      request.kind === 'create'
        ? apiRequest('/api/servers', serverSchema, { method: 'POST', body: request.input })
        : apiRequest(serverPath(request.id), serverSchema, {
            method: 'PUT',
            body: { ...request.input, version: request.version },
          }),
    onSuccess: (server) => refreshAfter(queryClient, server, server.client.id),
  });
}

export function useDeleteServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (server: Server) => apiSend(serverPath(server.id), { method: 'DELETE' }),
    onSuccess: async (_, server) => {
      // Every list, not its own entry, which is left to expire: asked again it would be a 404.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: serverKeys.list() }),
        queryClient.invalidateQueries({ queryKey: clientKeys.detail(server.client.id) }),
        queryClient.invalidateQueries({ queryKey: credentialKeys.all }),
      ]);
    },
  });
}

/** A server action answered with the server as it now is: make primary, check, accept key. */
function useServerAction<V>(request: (variables: V) => Promise<Server>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (server) => refreshAfter(queryClient, server, server.client.id),
  });
}

export function useMakePrimary() {
  return useServerAction((id: string) =>
    apiRequest(serverPath(id, '/primary'), serverSchema, { method: 'POST' }),
  );
}

/** Opens an SSH connection from the server: up to ~40 s for one that does not answer. */
export function useCheckServer() {
  return useServerAction((id: string) =>
    apiRequest(serverPath(id, '/check'), serverSchema, { method: 'POST' }),
  );
}

export function useAcceptHostKey() {
  return useServerAction(({ id, fingerprint }: { id: string; fingerprint: string }) =>
    apiRequest(serverPath(id, '/host-key'), serverSchema, {
      method: 'POST',
      body: { fingerprint },
    }),
  );
}
