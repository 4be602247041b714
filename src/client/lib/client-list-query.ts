import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { clientSummarySchema, type ClientSummaryList } from '#shared/clients.ts';
import { apiRequestRevalidated, type Revalidatable } from './api-client.ts';
import { clientKeys } from './query-keys.ts';

/** An object with a string id, passed on as it is (a looser schema would copy every key). */
const identified = z.custom<{ id: string }>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string',
  'Must be a client with an id',
);

/**
 * The list (what its rows show and its search reads of each client), checked by sample: its
 * first client in full, the rest as objects with an id, kept as they came. Every row comes from
 * the same presenter on the server, and parsing or copying each of ten thousand is the page's
 * main thread's time on the first visit and on every refetch (each live change refetches it).
 */
export const clientListSample = z
  .object({ clients: z.array(identified) })
  .superRefine(({ clients }, ctx) => {
    const first = clients[0];
    if (first === undefined) return;
    for (const issue of clientSummarySchema.safeParse(first).error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: ['clients', 0, ...issue.path] });
    }
  })
  .transform((list) => list as unknown as ClientSummaryList);

export function clientsQuery() {
  return queryOptions({
    queryKey: clientKeys.list(),
    // Asked again after every live change and reconnect: unchanged, it is answered with a 304
    // and the list already here is kept, not parsed again.
    queryFn: ({ signal, client }) =>
      apiRequestRevalidated(
        '/api/clients?view=summary',
        clientListSample,
        client.getQueryData<Revalidatable<ClientSummaryList>>(clientKeys.list()),
        { signal },
      ),
    select: (data) => data.data.clients,
  });
}
