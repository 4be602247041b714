import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { NETWORK_ERROR_STATUS, isApiError } from '#client/lib/api-client.ts';
import { meKey, needsSecondFactor, sessionAfter, type Session } from '#client/lib/session.ts';

/**
 * Any 401 means the session ended (signed out elsewhere, expired, revoked by a reset); a 403
 * ACCOUNT_DISABLED that an administrator disabled this account.
 */
function onError(error: unknown): void {
  const after = sessionAfter(error);
  if (after) queryClient.setQueryData<Session>(meKey, after);
  else if (needsSecondFactor(error)) void queryClient.invalidateQueries({ queryKey: meKey });
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx will not change by asking again; an unreachable server or a 5xx might.
      retry: (failureCount, error) =>
        failureCount < 2 &&
        (!isApiError(error) || error.status === NETWORK_ERROR_STATUS || error.status >= 500),
    },
    // What a form sent and got back (a server's password, a pasted private key, a new API
    // token) is dropped as soon as no form shows it, not five minutes later.
    mutations: { retry: false, gcTime: 0 },
  },
});
