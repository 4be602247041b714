import { z } from 'zod';
import { nextCursorSchema } from './pages.ts';
import { isStorableText } from './clients.ts';
import { hasHiddenInLine, HIDDEN_IN_LINE_MESSAGE } from './command-safe-text.ts';
import type { Permission } from './people.ts';
import { RECENT_SIGN_IN_MINUTES } from './second-factors.ts';

/**
 * What a personal API token may do, narrowest first; each scope holds the one before it. A
 * token's permissions are its scope's, and never more than its owner's role allows at the time
 * of the request. No scope reaches `admin`.
 */
export const TOKEN_SCOPES = ['read', 'read+secrets', 'write'] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES, 'scope: Must be read, read+secrets or write');
export type TokenScope = z.infer<typeof tokenScopeSchema>;

const SCOPE_GRANTS: Record<TokenScope, ReadonlySet<Permission>> = {
  read: new Set(['self', 'read']),
  'read+secrets': new Set(['self', 'read', 'secret']),
  write: new Set(['self', 'read', 'secret', 'write']),
};

/** Whether a scope lets a token use a permission (the owner's role is asked separately). */
export function scopeAllows(scope: TokenScope, permission: Permission): boolean {
  return SCOPE_GRANTS[scope].has(permission);
}

/** Every token starts with this, so secret scanners (and people) can recognise one. */
export const TOKEN_PREFIX = 'cm_';

/** The lifetimes offered, in days; null: the token never expires. */
export const TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

export const MAX_TOKEN_NAME_LENGTH = 100;

export const TOKEN_NEEDS_RECENT_SIGN_IN = `Sign out and sign in again to make an API token: it works without your password or second factor, so making one needs a sign-in from the last ${RECENT_SIGN_IN_MINUTES} minutes.`;

export const createTokenInputSchema = z.object({
  name: z
    .string('name: Name the token')
    .trim()
    .min(1, 'Name the token')
    .max(MAX_TOKEN_NAME_LENGTH, `Must be at most ${MAX_TOKEN_NAME_LENGTH} characters`)
    .refine(isStorableText, 'Must not contain NUL characters or broken Unicode')
    // Shown on one line in the token list and the audit trail: a bidi control would disguise it.
    .refine((value) => !hasHiddenInLine(value), HIDDEN_IN_LINE_MESSAGE),
  scope: tokenScopeSchema,
  expiresInDays: z.union(
    [...TOKEN_EXPIRY_DAYS.map((days) => z.literal(days)), z.null()],
    'Must be 30, 90, 365 or null (never)',
  ),
});
export type CreateTokenInput = z.infer<typeof createTokenInputSchema>;

/** A token as its owner sees it in the list: never the token itself. */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: tokenScopeSchema,
  /** The token's first characters, to recognise it by. */
  prefix: z.string(),
  createdAt: z.string(),
  /** null: never expires. */
  expiresAt: z.string().nullable(),
  /** null: never used. */
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({
  tokens: z.array(apiTokenSchema),
  nextCursor: nextCursorSchema,
});
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** The answer to a creation: the only time the token itself is sent. */
export const createdTokenSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;

/** A token's id in a path; text the databases can hold, so an odd one is a 404, never a 500. */
export const tokenIdParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .refine(isStorableText, 'Must not contain NUL characters or broken Unicode'),
});
