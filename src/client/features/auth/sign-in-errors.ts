/**
 * What an error code in the sign-in URL means, in words. Better Auth appends `?error=CODE` when
 * a mailed link or a provider sign-in fails. Only our own sentences are shown: a description
 * carried in the URL could be written by anyone who sends a link.
 */
const MESSAGES: Record<string, string> = {
  TOKEN_EXPIRED: 'That verification link has expired. Sign in to get a new one.',
  INVALID_TOKEN: 'That verification link is not valid. Sign in to get a new one.',
  USER_NOT_FOUND: 'That link belongs to an account that no longer exists.',
  EMAIL_NOT_ALLOWED:
    'That account is not allowed to sign in to Clients Manager: its email address is not on the staff list. Use your company account, or ask an administrator to allow it.',
  ACCOUNT_DISABLED:
    'This account is disabled. Ask an administrator if you think that is a mistake.',
  EMAIL_NOT_VERIFIED_BY_PROVIDER:
    'That provider has not verified your email address, so no account was made with it. Verify the address with the provider, or sign up with your email and password.',
  account_not_linked:
    'That provider account was not linked to the existing account with the same email, because the provider has not verified the address. Sign in with your email and password instead.',
  email_not_found:
    'The provider did not share an email address, which Clients Manager needs. Allow it to, or sign in with your email and password.',
  signup_disabled: 'Signing up through this provider is turned off.',
};

const RESTART =
  'The sign-in did not complete: it took too long or its answer was not valid. Try again.';

export function signInErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return MESSAGES[code] ?? RESTART;
}
