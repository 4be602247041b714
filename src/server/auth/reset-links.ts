import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/**
 * Better Auth keeps a password-reset link as a verification row: its value the person's id, its
 * identifier the link's token, hashed (auth.ts, `storeIdentifier`), so not findable by a prefix.
 * Using a link consumes that one alone: every other link asked for in the last hour still set
 * a password after a reset or a change, made perhaps because someone else could read the
 * mailbox. This forgets them. The person's other rows named by their id, the sign-ins waiting
 * for a code and the trusted browsers, have their own rules (pending-second-factor.ts,
 * trusted-devices.ts).
 */
export async function forgetPasswordResetLinks(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('verification')
    .where('value', '=', userId)
    .where('identifier', 'not like', '2fa-%')
    .where('identifier', 'not like', 'trust-device-%')
    .execute();
}
