import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';

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
