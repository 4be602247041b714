import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { clientSchema, type Client, type ClientInput } from '#shared/clients.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';
import { markDeletedHere } from '../deleted-here.ts';

export type SaveClientRequest =
  | { kind: 'create'; input: ClientInput }
  | { kind: 'update'; id: string; version: number; input: ClientInput };

export function useSaveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveClientRequest): Promise<Client> =>
      request.kind === 'create'
        ? apiRequest('/api/clients', clientSchema, { method: 'POST', body: request.input })
        : apiRequest(`/api/clients/${encodeURIComponent(request.id)}`, clientSchema, {
            method: 'PUT',
            body: { ...request.input, version: request.version },
          }),
    onSuccess: async (client) => {
      queryClient.setQueryData(clientKeys.detail(client.id), client);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: clientKeys.list() }),
        queryClient.invalidateQueries({ queryKey: clientKeys.commands(client.id) }),
      ]);
    },
  });
}

export function useDuplicateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/clients/${encodeURIComponent(id)}/duplicate`, clientSchema, {
        method: 'POST',
      }),
    onSuccess: (copy) => {
      queryClient.setQueryData(clientKeys.detail(copy.id), copy);
      return queryClient.invalidateQueries({ queryKey: clientKeys.list() });
    },
  });
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      markDeletedHere([id]);
      try {
        await apiSend(`/api/clients/${encodeURIComponent(id)}`, { method: 'DELETE' });
      } catch (error) {
        markDeletedHere([id], false);
        throw error;
      }
    },
    // The deleted client's own cache entry is left to expire: removing it while its panel is
    // still mounted would refetch it and flash "Client not found" before the page moves on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.list() }),
  });
}

/**
 * Undoes a delete: the server puts the client back with its id, version and history. A plain
 * function rather than a hook: it runs from a notification that outlives the panel.
 */
export async function restoreClient(queryClient: QueryClient, id: string): Promise<Client> {
  const client = await apiRequest(`/api/clients/${encodeURIComponent(id)}/restore`, clientSchema, {
    method: 'POST',
  });
  markDeletedHere([id], false);
  queryClient.setQueryData(clientKeys.detail(id), client);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: clientKeys.list() }),
    queryClient.invalidateQueries({ queryKey: clientKeys.detail(id) }),
  ]);
  return client;
}
