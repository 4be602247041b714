import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { clientSchema, type Client, type ClientInput } from '#shared/clients.ts';
import { apiRequest, apiSend } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';

/**
 * Ids this tab deleted itself, so the live feed's echo of that delete is not announced again
 * as a change made by someone else.
 */
const deletedHere = new Set<string>();
export function wasDeletedHere(id: string): boolean {
  return deletedHere.has(id);
}
/** Notes ids this tab is deleting (a bulk delete), or, with `deleted` false, no longer. */
export function markDeletedHere(ids: readonly string[], deleted = true): void {
  for (const id of ids) {
    if (deleted) deletedHere.add(id);
    else deletedHere.delete(id);
  }
}

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
      deletedHere.add(id);
      try {
        await apiSend(`/api/clients/${encodeURIComponent(id)}`, { method: 'DELETE' });
      } catch (error) {
        deletedHere.delete(id);
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
  deletedHere.delete(id);
  queryClient.setQueryData(clientKeys.detail(id), client);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: clientKeys.list() }),
    queryClient.invalidateQueries({ queryKey: clientKeys.detail(id) }),
  ]);
  return client;
}
