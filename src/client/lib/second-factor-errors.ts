import { WRONG_SECOND_FACTOR_CODE, WRONG_SECOND_FACTOR_MESSAGE } from '#shared/api-error.ts';

interface AuthError {
  status: number;
  message?: string | undefined;
  code?: string | undefined;
}

/** Better Auth's codes for a code that is wrong; the server already answers them as one. */
const WRONG_CODE = new Set([WRONG_SECOND_FACTOR_CODE, 'INVALID_CODE', 'INVALID_BACKUP_CODE']);

/** The pending sign-in is over (too many wrong codes, or it expired): start it again. */
const SIGN_IN_AGAIN = new Set(['TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE', 'INVALID_TWO_FACTOR_COOKIE']);

export const SIGN_IN_AGAIN_MESSAGE = 'This sign-in has ended. Enter your password again.';

/**
 * The sentence for a refused code, never naming which kind of code it was; null for any other
 * failure (the caller says it as for any Better Auth call: authErrorMessage).
 */
export function codeErrorMessage(error: AuthError): string | null {
  if (error.status === 429) return null;
  if (WRONG_CODE.has(error.code ?? '')) return WRONG_SECOND_FACTOR_MESSAGE;
  if (SIGN_IN_AGAIN.has(error.code ?? '')) return SIGN_IN_AGAIN_MESSAGE;
  return null;
}

/** Whether the code step is over and the person must enter their password again. */
export function mustSignInAgain(error: AuthError): boolean {
  return SIGN_IN_AGAIN.has(error.code ?? '');
}

/** Six digits as an authenticator app shows them, spaces and all, made plain. */
export function plainCode(value: string): string {
  return value.replace(/\s+/g, '');
}
