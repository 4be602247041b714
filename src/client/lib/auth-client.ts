import { createAuthClient } from 'better-auth/react';
import { inferAdditionalFields, twoFactorClient } from 'better-auth/client/plugins';
import { passkeyClient } from '@better-auth/passkey/client';

/**
 * Better Auth's browser client; its routes live under /api/auth on this same origin. The user's
 * own field the web app sets (src/server/auth/auth.ts declares and validates it).
 */
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  plugins: [
    inferAdditionalFields({ user: { listView: { type: ['list', 'table'], required: false } } }),
    // The sign-in screen shows the code step itself when the answer asks for it.
    twoFactorClient(),
    passkeyClient(),
  ],
});

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Wait a minute and try again.';

interface AuthError {
  status: number;
  message?: string | undefined;
  code?: string | undefined;
  /** Our own server's refusals (CSRF, session guard) answer `{ error }`, not Better Auth's shape. */
  error?: unknown;
}

/** The sentence to show for a failed Better Auth call. */
export function authErrorMessage(error: AuthError): string {
  if (error.status === 429) return RATE_LIMITED_MESSAGE;
  const said = error.message || (typeof error.error === 'string' ? error.error : '');
  if (error.status === 0 || error.status >= 500)
    return said || 'Something went wrong on the server. Try again.';
  return said || 'That did not work. Try again.';
}
