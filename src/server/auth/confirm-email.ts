import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { verifyJWT } from 'better-auth/crypto';
import {
  CONFIRM_EMAIL_DONE_ALREADY,
  CONFIRM_EMAIL_LINK_INVALID,
  CONFIRM_EMAIL_WRONG_PASSWORD,
  confirmEmailSchema,
} from '#shared/account.ts';
import type { Db } from '#server/db/database.ts';
import { awaitsFirstAdmin } from './first-admin.ts';
import { forgetPendingSecondFactorSignIns } from './pending-second-factor.ts';
import { forgetTrustedDevices } from './trusted-devices.ts';

/** Where the mailed link leads: the web app's page, which posts to CONFIRM_EMAIL_PATH. */
export function confirmEmailLink(publicUrl: string, token: string): string {
  return `${publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
}

export const CONFIRM_EMAIL_PATH = '/confirm-email';

/**
 * Finishing a sign-up. Better Auth verifies an address, and signs its account in, when anyone
 * opens the mailed link; but whoever signed the address up chose the password, so a stranger
 * who signed up a colleague's address got their account the moment the colleague clicked the
 * link they never asked for. Here the link opens the web app's page, which asks for the
 * password chosen at sign-up and posts it with the link's token: the address is verified and a
 * session made only for the person who knows both. Someone who did not sign up is told to
 * sign up themselves, which replaces the stranger's account (auth.ts). Better Auth's own
 * `/verify-email` is off (`disabledPaths`).
 *
 * The token is Better Auth's (an HS256 JWT under its secret, naming the address and the user
 * it was made for), read as its `/verify-email` reads one made at sign-up; a token of an email
 * change (`updateTo`) is none of these: the app has no email change.
 *
 * The first person to confirm on a new installation is its administrator (first-admin.ts).
 * The account keeps no other way in than the password just proved (keepOnlyThePassword).
 */
export function confirmEmailByPassword(db: Db) {
  return {
    id: 'clients-manager-confirm-email',
    endpoints: {
      confirmEmail: createAuthEndpoint(
        CONFIRM_EMAIL_PATH,
        { method: 'POST', body: confirmEmailSchema },
        async (ctx) => {
          const claims = await verifyJWT<{ email?: unknown; userId?: unknown; updateTo?: unknown }>(
            ctx.body.token,
            ctx.context.secret,
          );
          const invalid = () =>
            new APIError('BAD_REQUEST', {
              code: 'INVALID_TOKEN',
              message: CONFIRM_EMAIL_LINK_INVALID,
            });
          if (typeof claims?.email !== 'string' || claims.updateTo !== undefined) throw invalid();
          const found = await ctx.context.internalAdapter.findUserByEmail(claims.email, {
            includeAccounts: true,
          });
          // A later sign-up of the address made its account anew: this link names the old one.
          if (!found || (claims.userId !== undefined && claims.userId !== found.user.id)) {
            throw invalid();
          }
          if (found.user.emailVerified) {
            throw new APIError('CONFLICT', {
              code: 'EMAIL_ALREADY_CONFIRMED',
              message: CONFIRM_EMAIL_DONE_ALREADY,
            });
          }
          const hash = found.accounts.find((a) => a.providerId === 'credential')?.password;
          const known =
            typeof hash === 'string' &&
            (await ctx.context.password.verify({ hash, password: ctx.body.password }));
          if (!known) {
            throw new APIError('UNAUTHORIZED', {
              code: 'NOT_THE_SIGN_UP_PASSWORD',
              message: CONFIRM_EMAIL_WRONG_PASSWORD,
            });
          }
          await keepOnlyThePassword(db, found.user.id);
          const user = await ctx.context.internalAdapter.updateUser(found.user.id, {
            emailVerified: true,
            twoFactorEnabled: false,
            ...((await awaitsFirstAdmin(db)) && { role: 'admin' }),
          });
          const session = await ctx.context.internalAdapter.createSession(found.user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ status: true });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}

/**
 * Everything but the password on an account nobody had shown to be theirs was put there by
 * whoever made it or signed in to it: a provider account that had not verified the address
 * (before providers had to), a passkey, an authenticator or a trusted browser added in such a
 * session, and the sessions themselves. The owner who has just proved the address and the
 * password keeps only that password.
 */
async function keepOnlyThePassword(db: Db, userId: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('account')
      .where('userId', '=', userId)
      .where('providerId', '!=', 'credential')
      .execute();
    for (const table of ['passkey', 'twoFactor', 'session'] as const) {
      await trx.deleteFrom(table).where('userId', '=', userId).execute();
    }
    await forgetTrustedDevices(trx, userId);
    await forgetPendingSecondFactorSignIns(trx, userId);
  });
}
