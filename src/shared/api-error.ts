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
export type ApiErrorCode =
  typeof ACCOUNT_DISABLED_CODE | typeof EMAIL_NOT_VERIFIED_CODE | typeof EMAIL_NOT_ALLOWED_CODE;
