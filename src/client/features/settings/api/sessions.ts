import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { userSessionsSchema } from '#shared/account.ts';
import { apiRequest } from '#client/lib/api-client.ts';

export const sessionsKey = ['me', 'sessions'] as const;

export function sessionsQuery() {
  return queryOptions({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => apiRequest('/api/me/sessions', userSessionsSchema, { signal }),
  });
}

/** Signs out every other device of this user; this one stays signed in. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest('/api/me/sessions/revoke-others', z.object({ ok: z.boolean() }), {
        method: 'POST',
        body: {},
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
