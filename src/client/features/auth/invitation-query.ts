import { queryOptions } from '@tanstack/react-query';
import { invitationLookupSchema } from '#shared/people-admin.ts';
import { apiRequest } from '#client/lib/api-client.ts';

/** The address an invitation link was mailed to (404 once it is used, revoked or expired). */
export function invitationQuery(token: string) {
  return queryOptions({
    queryKey: ['invitation', token] as const,
    queryFn: ({ signal }) =>
      apiRequest(`/api/invitations/${encodeURIComponent(token)}`, invitationLookupSchema, {
        signal,
      }),
    retry: false,
    staleTime: Infinity,
  });
}
