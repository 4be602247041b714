import { z } from 'zod';
import { nextCursorSchema } from './pages.ts';
import { isStorableText } from './clients.ts';
import { roleSchema } from './people.ts';
import { MIN_SECRET_LENGTH, SHORT_SECRET_MESSAGE } from './secret-length.ts';
import {
  HIDDEN_CHARACTER_MESSAGE,
  HIDDEN_IN_LINE_MESSAGE,
  LEADING_DASH_MESSAGE,
  hasHiddenCharacters,
  hasHiddenInLine,
  startsLikeOption,
} from './command-safe-text.ts';

/** The signed-in user as the app shows them (the original's User document). */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  emailVerified: z.boolean(),
  listView: z.enum(['list', 'table']),
  role: roleSchema,
  /** The tags this person is limited to; null: every client. */
  tags: z.array(z.string()).nullable(),
  twoFactorEnabled: z.boolean(),
  /** REQUIRE_2FA: this person must set up a second factor before using the app. */
  secondFactorRequired: z.boolean(),
  accessToken: z.object({ isSet: z.boolean(), masked: z.string().nullable() }),
});
export type Me = z.infer<typeof meSchema>;

export const accessTokenInputSchema = z.object({
  accessToken: z
    .string()
    .trim()
    .max(4096, 'Must be at most 4096 characters')
    .refine(isStorableText, 'Must not contain NUL characters or broken Unicode')
    .refine((v) => !hasHiddenCharacters(v), HIDDEN_CHARACTER_MESSAGE)
    // `{accessToken}` in the deploy command: a leading '-' would be an option to the program.
    .refine((v) => !startsLikeOption(v), LEADING_DASH_MESSAGE)
    // Empty removes the token.
    .refine((v) => v === '' || v.length >= MIN_SECRET_LENGTH, SHORT_SECRET_MESSAGE),
});
export type AccessTokenInput = z.infer<typeof accessTokenInputSchema>;

/** Public configuration the sign-in screen needs before anyone is signed in. */
export const publicConfigSchema = z.object({
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** The longest display name, as for a client's name. */
export const DISPLAY_NAME_MAX = 200;

/**
 * A display name as it is stored: shown on one line in every list and in an operator's
 * terminal, so capped and without control, bidi or zero-width characters. The server's auth
 * hook checks a name with it as Better Auth would store it, untrimmed (src/server/auth/auth.ts).
 */
export const displayNameText = z
  .string()
  .max(DISPLAY_NAME_MAX, `Must be at most ${DISPLAY_NAME_MAX} characters`)
  .refine((v) => !hasHiddenInLine(v), HIDDEN_IN_LINE_MESSAGE);

/** A display name as sign-up and Settings take it: trimmed, then displayNameText. */
export const displayNameField = z.string().trim().pipe(displayNameText);

export const passwordSchema = z
  .string()
  .min(8, 'Must be at least 8 characters')
  .max(128, 'Must be at most 128 characters');

/** One signed-in device of the current user, as the Settings page lists it. */
export const userSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;
export const userSessionsSchema = z.object({
  sessions: z.array(userSessionSchema),
  nextCursor: nextCursorSchema,
});
export type UserSessions = z.infer<typeof userSessionsSchema>;

/** How a person sees the client list; kept on the user, so every browser of theirs shows it. */
export const LIST_VIEWS = ['list', 'table'] as const;
export const listViewSchema = z.enum(LIST_VIEWS, 'listView: Must be list or table');
export type ListView = z.infer<typeof listViewSchema>;

/** What `/confirm-email` posts: the mailed link's token and the password chosen at sign-up. */
export const confirmEmailSchema = z.object({
  token: z.string().min(1, 'token: The link is missing its token'),
  password: z.string().min(1, 'Enter your password'),
});

export const CONFIRM_EMAIL_LINK_INVALID =
  'This link is not valid any more: it expired, or the address was signed up again since. Sign in to get a new one.';
export const CONFIRM_EMAIL_WRONG_PASSWORD =
  'That is not the password chosen at sign-up. If you did not sign up, someone else used your address: sign up with it yourself, and their account is replaced.';
export const CONFIRM_EMAIL_DONE_ALREADY = 'This address is confirmed already: sign in.';
