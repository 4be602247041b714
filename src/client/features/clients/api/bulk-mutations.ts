import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  bulkResultSchema,
  type BulkResult,
  type BulkTagsInput,
  type ExportSelection,
} from '#shared/client-bulk.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';
import { downloadFile } from '#client/lib/file-download.ts';
import { markDeletedHere } from '../deleted-here.ts';

function postBulk(path: 'tags' | 'delete' | 'restore', body: unknown): Promise<BulkResult> {
  return apiRequest(`/api/clients/bulk/${path}`, bulkResultSchema, { method: 'POST', body });
}

/**
 * After a bulk write: the list and every client shown. One invalidation of everything under
 * `clients` rather than one per client: only what is on screen is asked again, whether the
 * change touched 3 clients or 10,000.
 */
function refreshClients(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: clientKeys.all });
}

/** Adds (`add`) or removes (`remove`) tags on the clients under `ids`; answers those changed. */
export function useBulkTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BulkTagsInput) => postBulk('tags', request),
    onSuccess: () => refreshClients(queryClient),
  });
}

/** Deletes the clients under `ids` in one request; `restoreClients` is its Undo. */
export function useBulkDelete() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      // The live feed's echo of these deletes is ours: not to be announced as someone else's.
      markDeletedHere(ids);
      try {
        return await postBulk('delete', { ids });
      } catch (error) {
        markDeletedHere(ids, false);
        throw error;
      }
    },
    // As for one delete, the deleted clients' own entries are left to expire rather than asked
    // again (each would be a 404).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.list() }),
  });
}

/**
 * The Undo of a bulk delete: every one of them back with its id, version and history, or none.
 * A plain function rather than a hook: it runs from a notification that outlives the toolbar.
 */
export async function restoreClients(
  queryClient: QueryClient,
  ids: readonly string[],
): Promise<BulkResult> {
  const result = await postBulk('restore', { ids });
  markDeletedHere(ids, false);
  await refreshClients(queryClient);
  return result;
}

/** Downloads the export of these clients only, with the same rules as the whole export. */
export function downloadSelectedExport(ids: readonly string[], secrets: boolean): Promise<void> {
  return downloadFile('/api/clients/export', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ ids: [...ids], secrets } satisfies ExportSelection),
  });
}
