import { formCsrfMiddleware, signUpEmail } from 'better-auth/api';
import { parseUserInput } from 'better-auth/db';
import type { createAuthMiddleware } from 'better-auth/api';

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const signUpBody = signUpEmail().options.body;
const SIGN_UP_FIELDS = new Set(['name', 'email', 'image', 'callbackURL', 'rememberMe']);

/**
 * Whether Better Auth's /sign-up/email, running after the before-hooks, will get as far as
 * making the user: the checks it makes before it looks the address up (cross-site form posts,
 * the body's fields and their types, the password's length, fields a person may not set).
 * Starting a pending account over (auth.ts) removes it in a before-hook, outside the sign-up's
 * work, and Better Auth runs this project's adapter without transactions, so nothing undoes
 * it: a sign-up refused after the removal would end the owner's pending sign-up, whose link
 * would then lead nowhere, and leave the address free to whoever signs it up next.
 * Any doubt answers false: the pending account stays, and Better Auth answers with its own
 * error (or as for any address that has an account).
 */
export async function signUpWillCreateUser(ctx: HookContext): Promise<boolean> {
  try {
    await formCsrfMiddleware(ctx);
    const parsed = signUpBody.safeParse(ctx.body);
    if (!parsed.success) return false;
    // What Better Auth reads as the user's other fields: the body without these.
    const { password, ...fields } = parsed.data;
    const rest = Object.fromEntries(
      Object.entries(fields).filter(([key]) => !SIGN_UP_FIELDS.has(key)),
    );
    const { minPasswordLength, maxPasswordLength } = ctx.context.password.config;
    if (password.length < minPasswordLength || password.length > maxPasswordLength) return false;
    parseUserInput(ctx.context.options, rest, 'create');
    return true;
  } catch {
    return false;
  }
}
