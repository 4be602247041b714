import { queryOptions } from '@tanstack/react-query';
import { appListSchema } from '#shared/apps.ts';
import { apiRequest } from './api-client.ts';

/**
 * A client's apps, for a picker outside the Apps section (an issue may be about one). Under
 * the `apps` root, so whatever refreshes the Apps section's lists refreshes this too.
 */
export function clientAppsQuery(clientId: string) {
  return queryOptions({
    queryKey: ['apps', 'list', { clientId }] as const,
    queryFn: ({ signal }) =>
      apiRequest(`/api/apps?clientId=${encodeURIComponent(clientId)}`, appListSchema, { signal }),
    select: (data) => data.apps,
  });
}
