import { queryOptions } from '@tanstack/react-query';
import { clientPasswordSchema, clientSchema } from '#shared/clients.ts';
import { clientHistorySchema } from '#shared/events.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';

export { clientsQuery } from '#client/lib/client-list-query.ts';

export function clientQuery(id: string) {
  return queryOptions({
    queryKey: clientKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(`/api/clients/${encodeURIComponent(id)}`, clientSchema, { signal }),
  });
}

export function historyQuery(id: string) {
  return queryOptions({
    queryKey: clientKeys.history(id),
    queryFn: ({ signal }) =>
      apiRequest(`/api/clients/${encodeURIComponent(id)}/history`, clientHistorySchema, {
        signal,
      }),
    select: (data) => data.events,
  });
}

/**
 * Not a cached query on purpose: each read is recorded in the audit log, so it happens only
 * when the user asks and is never refetched behind their back.
 */
export async function fetchClientPassword(id: string): Promise<string> {
  const { password } = await apiRequest(
    `/api/clients/${encodeURIComponent(id)}/password`,
    clientPasswordSchema,
  );
  return password;
}
