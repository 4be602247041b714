import { isAPIError } from 'better-auth/api';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { afterRoutes } from './route-hook.ts';

/**
 * Better Auth's twoFactor plugin remembers a browser that chose 'trust this device' as a
 * verification row (identifier `trust-device-…`, value the user's id); its cookie alone is not
 * enough. Its routes forget only the browser that turns codes off, and an administrator's reset
 * deletes the factor's rows directly: without this, every browser trusted before would skip the
 * code for up to 30 days once the person set up codes again.
 */
export async function forgetTrustedDevices(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('verification')
    .where('identifier', 'like', 'trust-device-%')
    .where('value', '=', userId)
    .execute();
}

/**
 * The person's own routes after which no browser trusted before is trusted: turning codes off
 * or setting up new ones (trust given under the old codes, or left from before codes were last
 * turned off), and a password change, often made because the old one leaked, on a laptop that
 * may keep it saved. A reset, a sign-out of the other devices and an administrator's sign-out
 * everywhere forget trust where they end sessions.
 */
const TRUST_ENDING_ROUTES: ReadonlySet<string> = new Set([
  '/two-factor/disable',
  '/two-factor/enable',
  '/change-password',
]);

export function forgetTrustOnAccountChange(db: Kysely<Database>) {
  return afterRoutes(
    'clients-manager-forget-trust-on-account-change',
    TRUST_ENDING_ROUTES,
    async (ctx) => {
      if (isAPIError(ctx.context.returned)) return;
      // Each needs a session; disable and a password change may replace it with a new one.
      const userId = ctx.context.session?.user.id ?? ctx.context.newSession?.user.id;
      if (userId) await forgetTrustedDevices(db, userId);
    },
  );
}
