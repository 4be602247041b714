import { queryOptions, useQuery } from '@tanstack/react-query';
import { clientHistorySchema } from '#shared/events.ts';
import { serverListSchema, serverSchema, type ServerStatus } from '#shared/servers.ts';
import { apiRequest } from './api-client.ts';
import { serverKeys } from './query-keys.ts';

export interface ServerFilter {
  clientId?: string;
  status?: ServerStatus;
  q?: string;
}

/** The servers of every client, or those the filter keeps (the API filters, not the page). */
export function serversQuery(filter: ServerFilter = {}) {
  const params = new URLSearchParams();
  if (filter.clientId) params.set('clientId', filter.clientId);
  if (filter.status) params.set('status', filter.status);
  if (filter.q) params.set('q', filter.q);
  const search = params.toString();
  return queryOptions({
    queryKey: serverKeys.list(filter),
    queryFn: ({ signal }) =>
      apiRequest(`/api/servers${search ? `?${search}` : ''}`, serverListSchema, { signal }),
    select: (data) => data.servers,
  });
}

export function serverQuery(id: string) {
  return queryOptions({
    queryKey: serverKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(`/api/servers/${encodeURIComponent(id)}`, serverSchema, { signal }),
  });
}

export function serverHistoryQuery(id: string) {
  return queryOptions({
    queryKey: serverKeys.history(id),
    queryFn: ({ signal }) =>
      apiRequest(`/api/servers/${encodeURIComponent(id)}/history`, clientHistorySchema, {
        signal,
      }),
    select: (data) => data.events,
  });
}

/** The servers of a client: all of them, the primary first (the API's order otherwise). */
export function useClientServers(clientId: string) {
  return useQuery({
    ...serversQuery({ clientId }),
    select: (data) => [...data.servers].sort((a, b) => Number(b.primary) - Number(a.primary)),
  });
}
