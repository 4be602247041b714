import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { clientSummarySchema, type ClientSummaryList } from '#shared/clients.ts';
import { apiRequestRevalidated, type Revalidatable } from './api-client.ts';
import { clientKeys } from './query-keys.ts';

/**
 * The list (what its rows show and its search reads of each client), checked by sample: its
 * first client in full, the rest as objects. Every row comes from the same presenter on the
 * server, and parsing all ten thousand took a tenth of a second of the page's main thread on
 * every refetch (each live update refetches it).
 */
const clientListSample = z
  .object({ clients: z.array(z.looseObject({ id: z.string() })) })
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
