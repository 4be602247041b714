import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { webhookDeliveryPageSchema, webhookListSchema } from '#shared/webhooks.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { webhookKeys } from '#client/lib/query-keys.ts';

/**
 * Deliveries change state on the server with no event to say so (a receiver answers, a retry
 * comes due): while some are waiting, the screen asks again this often.
 */
export const WAITING_REFRESH_MS = 3_000;

export const webhookPath = (id: string, action = '') =>
  `/api/webhooks/${encodeURIComponent(id)}${action}`;

export function webhooksQuery() {
  return queryOptions({
    queryKey: webhookKeys.list(),
    queryFn: ({ signal }) => apiRequest('/api/webhooks', webhookListSchema, { signal }),
    refetchInterval: (query) =>
      query.state.data?.webhooks.some((webhook) => webhook.pending > 0)
        ? WAITING_REFRESH_MS
        : false,
  });
}

/** One endpoint's deliveries, newest first; each further page is older. */
export function deliveriesQuery(id: string) {
  return infiniteQueryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ signal, pageParam }) => {
      const query = pageParam === null ? '' : `?cursor=${encodeURIComponent(pageParam)}`;
      return apiRequest(webhookPath(id, `/deliveries${query}`), webhookDeliveryPageSchema, {
        signal,
      });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.deliveries.some((delivery) => delivery.status === 'pending'),
      )
        ? WAITING_REFRESH_MS
        : false,
  });
}
