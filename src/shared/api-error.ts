import { z } from 'zod';

/**
 * Every 4xx/5xx body of our API. `fields` maps a dotted field path (as the form names it,
 * e.g. `server.port` or `domains.0`) to the message shown next to that field.
 */
export const apiErrorSchema = z.object({
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  /** Which refusal this is, where the web app acts on the kind and not only shows the words. */
  code: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** The codes our own API sends (Better Auth's routes use the same two for the same refusals). */
export const ACCOUNT_DISABLED_CODE = 'ACCOUNT_DISABLED';
export const EMAIL_NOT_VERIFIED_CODE = 'EMAIL_NOT_VERIFIED';
/** A session of someone ALLOWED_EMAIL_DOMAINS / ALLOWED_EMAILS no longer let in. */
export const EMAIL_NOT_ALLOWED_CODE = 'EMAIL_NOT_ALLOWED';
/**
 * A provider's first sign-in for an address it has not verified: no account is made, as nobody
 * has shown the address is theirs (the sign-in screen says so).
 */
export const EMAIL_NOT_VERIFIED_BY_PROVIDER_CODE = 'EMAIL_NOT_VERIFIED_BY_PROVIDER';
/** REQUIRE_2FA: a password account without a second factor must set one up first. */
export const SECOND_FACTOR_REQUIRED_CODE = 'SECOND_FACTOR_REQUIRED';
/** A wrong authenticator or backup code at sign-in; the message does not say which it was. */
export const WRONG_SECOND_FACTOR_CODE = 'INVALID_SECOND_FACTOR_CODE';
export const WRONG_SECOND_FACTOR_MESSAGE = 'That code is not right';
/** An authenticator code accepted once already: each works once, the app shows the next. */
export const USED_SECOND_FACTOR_CODE = 'SECOND_FACTOR_CODE_USED';
export const USED_SECOND_FACTOR_MESSAGE =
  'That code has been used already. Wait for the next code in your authenticator app.';
/** A session signed in too long ago for what it asked (Better Auth's code for its own such refusals). */
export const SESSION_NOT_FRESH_CODE = 'SESSION_NOT_FRESH';
/** A save over a version someone else replaced first: the web app offers to load theirs. */
export const STALE_VERSION_CODE = 'STALE_VERSION';
export type ApiErrorCode =
  | typeof STALE_VERSION_CODE
  | typeof ACCOUNT_DISABLED_CODE
  | typeof EMAIL_NOT_VERIFIED_CODE
  | typeof EMAIL_NOT_ALLOWED_CODE
  | typeof SECOND_FACTOR_REQUIRED_CODE
  | typeof SESSION_NOT_FRESH_CODE;
