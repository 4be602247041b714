import { createAuthClient } from 'better-auth/react';

/** Better Auth's browser client; its routes live under /api/auth on this same origin. */
export const authClient = createAuthClient({ baseURL: window.location.origin });

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Wait a minute and try again.';

interface AuthError {
  status: number;
  message?: string | undefined;
  code?: string | undefined;
}

/** The sentence to show for a failed Better Auth call. */
export function authErrorMessage(error: AuthError): string {
  if (error.status === 429) return RATE_LIMITED_MESSAGE;
  if (error.status === 0 || error.status >= 500)
    return error.message || 'Something went wrong on the server. Try again.';
  return error.message || 'That did not work. Try again.';
}
