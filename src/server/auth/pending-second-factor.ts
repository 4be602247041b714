import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { forgetPasswordResetLinks } from './reset-links.ts';

/**
 * Better Auth's twoFactor plugin keeps a sign-in that passed the password and waits for its
 * code as a verification row (identifier `2fa-` and 20 random characters, value the user's
 * id; its count of wrong codes is `2fa-attempts-` and that identifier), named by the browser's
 * cookie for ten minutes. No session exists yet, so ending sessions leaves it: whoever stopped
 * at the code step with a stolen password could still finish after the person was signed out
 * everywhere or had reset that password. This forgets every such sign-in of the person.
 */
export async function forgetPendingSecondFactorSignIns(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<void> {
  const pending = await db
    .deleteFrom('verification')
    .where('identifier', 'like', '2fa-%')
    .where('value', '=', userId)
    .returning('identifier')
    .execute();
  if (pending.length === 0) return;
  await db
    .deleteFrom('verification')
    .where(
      'identifier',
      'in',
      pending.map((row) => `2fa-attempts-${row.identifier}`),
    )
    .execute();
}

/**
 * A person changing their own password (Settings, Better Auth's /change-password) forgets the
 * sign-ins waiting for a code too, as a reset does: one started with the old password, which
 * the person may be changing because it was stolen, must not finish; nor may a reset link asked
 * for before set another password. Whatever revokeOtherSessions says: that is about sessions,
 * and a pending sign-in is none yet.
 */
export function forgetPendingSignInsOnPasswordChange(db: Kysely<Database>) {
  return {
    id: 'clients-manager-forget-pending-sign-ins-on-password-change',
    hooks: {
      after: [
        {
          matcher: (context) => context.path === '/change-password',
          handler: createAuthMiddleware(async (ctx) => {
            if (isAPIError(ctx.context.returned)) return;
            const userId = ctx.context.session?.user.id;
            if (!userId) return;
            await forgetPendingSecondFactorSignIns(db, userId);
            await forgetPasswordResetLinks(db, userId);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
