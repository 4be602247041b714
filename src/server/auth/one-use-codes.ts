import { timingSafeEqual } from 'node:crypto';
import { APIError, createAuthMiddleware, getAuthoritativeSessionFromCtx } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { USED_SECOND_FACTOR_CODE, USED_SECOND_FACTOR_MESSAGE } from '#shared/api-error.ts';
import type { Db } from '#server/db/database.ts';

/** Better Auth's defaults for the codes, which second-factors.ts keeps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Better Auth accepts the step before and the step after the current one (clock drift). */
const WINDOW = 1;
/**
 * Better Auth reads the clock again after this hook: a step may end in between, moving its
 * window one step on. A code of that next step is claimed too, so it is never accepted unclaimed.
 */
const STEP_AHEAD = WINDOW + 1;

/**
 * Better Auth's cookie of a sign-in waiting for its code. Its name is not exported; the
 * sign-in replay test in second-factors.test.ts fails if it changes.
 */
const PENDING_SIGN_IN_COOKIE = 'two_factor';

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * An authenticator code is accepted once (RFC 6238 §5.2). Better Auth 1.7 accepts a right code
 * again for as long as its step is in the window, about 90 seconds: a code read over a
 * shoulder, or from a recording, would sign a second browser in. Before Better Auth checks
 * a code, this finds the step it belongs to and moves the person's `lastUsedStep` past it in
 * one conditional update, so of two requests with one code only one gets through, and a code
 * of that step or an earlier one is refused with its own message. A wrong code, and any code
 * while the person's codes are locked, is left to Better Auth, which counts or refuses it.
 */
export function oneUseCodes(db: Db) {
  return {
    id: 'clients-manager-one-use-codes',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/two-factor/verify-totp',
          handler: createAuthMiddleware(async (ctx) => {
            const code: unknown = (ctx.body as { code?: unknown } | undefined)?.code;
            if (typeof code !== 'string') return;
            const userId = await codeOwner(ctx);
            if (!userId) return;
            const factor = await db.kysely
              .selectFrom('twoFactor')
              .select(['id', 'secret', 'lockedUntil'])
              .where('userId', '=', userId)
              .executeTakeFirst();
            if (!factor || isLocked(factor.lockedUntil)) return;
            const step = await stepOf(code, await totpSecret(ctx, factor.secret));
            if (step === undefined) return;
            const claimed = await db.kysely
              .updateTable('twoFactor')
              .set({ lastUsedStep: step })
              .where('id', '=', factor.id)
              .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
              .executeTakeFirst();
            if (claimed.numUpdatedRows === 0n) {
              throw new APIError('UNAUTHORIZED', {
                code: USED_SECOND_FACTOR_CODE,
                message: USED_SECOND_FACTOR_MESSAGE,
              });
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** Whose code it is: the signed-in person's (turning codes on), or the pending sign-in's. */
async function codeOwner(ctx: HookContext): Promise<string | undefined> {
  // As Better Auth's verify route asks: past any cookie cache, so a revoked session is none.
  const session = await getAuthoritativeSessionFromCtx(ctx);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie(PENDING_SIGN_IN_COOKIE);
  const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!pending) return undefined;
  return (await ctx.context.internalAdapter.findVerificationValue(pending))?.value;
}

/** The secret as Better Auth's verify route reads it (an imported one is kept in base32). */
async function totpSecret(ctx: HookContext, sealed: string): Promise<string | Uint8Array> {
  const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: sealed });
  const prefix = 'base32:';
  return secret.startsWith(prefix)
    ? base32.decode(secret.slice(prefix.length).toUpperCase())
    : secret;
}

/** The step of this code in Better Auth's window or just after it; undefined for a wrong code. */
async function stepOf(code: string, secret: string | Uint8Array): Promise<number | undefined> {
  const otp = createOTP(secret, { period: PERIOD_SECONDS, digits: DIGITS });
  const now = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
  let matched: number | undefined;
  // Every step is computed and compared, so the time taken does not say which one matched.
  for (let step = now - WINDOW; step <= now + STEP_AHEAD; step += 1) {
    if (sameCode(code, await otp.hotp(step))) matched = step;
  }
  return matched;
}

/** Locked codes are Better Auth's to refuse: a right code sent then is not spent. */
function isLocked(lockedUntil: string | Date | null): boolean {
  return lockedUntil !== null && new Date(lockedUntil).getTime() > Date.now();
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
