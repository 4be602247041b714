import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import {
  clientCommandsSchema,
  clientPasswordSchema,
  clientSchema,
  clientSummarySchema,
  type ClientSummaryList,
} from '#shared/clients.ts';
import { clientHistorySchema } from '#shared/events.ts';
import { apiRequest, apiRequestRevalidated, type Revalidatable } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';

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

export function clientQuery(id: string) {
  return queryOptions({
    queryKey: clientKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest(`/api/clients/${encodeURIComponent(id)}`, clientSchema, { signal }),
  });
}

export function commandsQuery(id: string) {
  return queryOptions({
    queryKey: clientKeys.commands(id),
    queryFn: ({ signal }) =>
      apiRequest(`/api/clients/${encodeURIComponent(id)}/commands`, clientCommandsSchema, {
        signal,
      }),
    select: (data) => data.commands,
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
