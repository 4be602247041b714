import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';

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
 * The person's own routes that turn codes off or set up new ones: a browser trusted under the
 * codes before is not trusted under the next ones. Turning on forgets too, for trust left from
 * before codes were last turned off.
 */
const FACTOR_CHANGE_ROUTES: ReadonlySet<string> = new Set([
  '/two-factor/disable',
  '/two-factor/enable',
]);

export function forgetTrustOnFactorChange(db: Kysely<Database>) {
  return {
    id: 'clients-manager-forget-trust-on-factor-change',
    hooks: {
      after: [
        {
          matcher: (context) => FACTOR_CHANGE_ROUTES.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            if (isAPIError(ctx.context.returned)) return;
            // Both routes need a session; disable replaces it with a new one.
            const userId = ctx.context.session?.user.id ?? ctx.context.newSession?.user.id;
            if (userId) await forgetTrustedDevices(db, userId);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
