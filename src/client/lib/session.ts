import { createContext, use } from 'react';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { meSchema, type Me } from '#shared/account.ts';
import {
  ACCOUNT_DISABLED_CODE,
  EMAIL_NOT_ALLOWED_CODE,
  SECOND_FACTOR_REQUIRED_CODE,
} from '#shared/api-error.ts';
import { apiRequest, isApiError } from './api-client.ts';

/**
 * Who is using the app, as the API sees it. A missing, unverified or disabled session is an
 * answer, not an error, so the guard can route on it without retries or error screens.
 */
export type Session =
  | { status: 'signed-in'; me: Me }
  | { status: 'signed-out' }
  | { status: 'unverified' }
  /** Disabled, or no longer on the allowlists: the sign-in screen says which. */
  | { status: 'refused'; code: typeof ACCOUNT_DISABLED_CODE | typeof EMAIL_NOT_ALLOWED_CODE };

/** What an API refusal says about the session, if anything. */
export function sessionAfter(error: unknown): Session | null {
  if (isApiError(error, 401)) return { status: 'signed-out' };
  if (!isApiError(error, 403)) return null;
  if (error.code === ACCOUNT_DISABLED_CODE || error.code === EMAIL_NOT_ALLOWED_CODE) {
    return { status: 'refused', code: error.code };
  }
  return null;
}

/**
 * REQUIRE_2FA refused a call: this person has to set up a second factor first (their /api/me
 * says so, and the auth guard leads them there once it is read again).
 */
export function needsSecondFactor(error: unknown): boolean {
  return isApiError(error, 403) && error.code === SECOND_FACTOR_REQUIRED_CODE;
}

/** The screen where REQUIRE_2FA sends a person without a second factor, until they have one. */
export const SECOND_FACTOR_SET_UP_PATH = '/set-up-second-factor';

export const meKey = ['me'] as const;

export function meQuery() {
  return queryOptions({
    queryKey: meKey,
    queryFn: async ({ signal }): Promise<Session> => {
      try {
        return { status: 'signed-in', me: await apiRequest('/api/me', meSchema, { signal }) };
      } catch (error) {
        const after = sessionAfter(error);
        if (after) return after;
        if (isApiError(error, 403)) return { status: 'unverified' };
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/**
 * Forgets everything read under a session that has ended (signed out elsewhere, expired,
 * disabled), keeping only what the session check says now: whoever signs in next in this tab
 * must not be shown it, not even while their own reads are on the way.
 */
export function forgetReads(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meKey[0] });
}

/** Forgets everything cached for the previous user and records that nobody is signed in. */
export function forgetSession(queryClient: QueryClient): void {
  queryClient.clear();
  queryClient.setQueryData<Session>(meKey, { status: 'signed-out' });
}

/**
 * The signed-in user, handed down by the auth guard. A context rather than a query read, so
 * the screens keep a consistent user while the guard is already leading away on sign-out.
 */
export const MeContext = createContext<Me | null>(null);

export function useMe(): Me {
  const me = use(MeContext);
  if (!me) throw new Error('useMe() used outside the auth guard');
  return me;
}
