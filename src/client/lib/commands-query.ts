import { queryOptions } from '@tanstack/react-query';
import { clientCommandsSchema } from '#shared/clients.ts';
import { apiRequest } from './api-client.ts';
import { clientKeys } from './query-keys.ts';

/** The commands for one of the client's servers; without `serverId`, for its primary. */
export function commandsQuery(id: string, serverId?: string) {
  const search = serverId === undefined ? '' : `?serverId=${encodeURIComponent(serverId)}`;
  return queryOptions({
    queryKey: clientKeys.commands(id, serverId),
    queryFn: ({ signal }) =>
      apiRequest(`/api/clients/${encodeURIComponent(id)}/commands${search}`, clientCommandsSchema, {
        signal,
      }),
    select: (data) => data.commands,
  });
}
