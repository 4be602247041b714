import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Me } from '#shared/account.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';
import { meKey, type Session } from '#client/lib/session.ts';

const accessTokenResponseSchema = z.object({
  accessToken: z.object({ isSet: z.boolean(), masked: z.string().nullable() }),
});

/** Saves ('' removes) the deploy access token; every deploy command depends on it. */
export function useSaveAccessToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accessToken: string) =>
      apiRequest('/api/me/access-token', accessTokenResponseSchema, {
        method: 'PUT',
        body: { accessToken },
      }),
    onSuccess: async ({ accessToken }) => {
      queryClient.setQueryData<Session>(meKey, (session) =>
        session?.status === 'signed-in'
          ? { status: 'signed-in', me: { ...session.me, accessToken } satisfies Me }
          : session,
      );
      await queryClient.invalidateQueries({ queryKey: clientKeys.all });
    },
  });
}
