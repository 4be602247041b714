import type { Role } from '#shared/people.ts';
import type { Db } from '#server/db/database.ts';

/**
 * The role a new account starts with: `admin` while the installation has no administrator
 * (its first person, whether they sign up, come through a provider or are made by the `user`
 * command), DEFAULT_ROLE otherwise. Called by Better Auth's user-create hook, so every way an
 * account is made follows the one rule.
 *
 * "No administrator yet" rather than "no account yet": a pending sign-up of the first person
 * that is started over (auth.ts removes the unverified account and makes it anew) would
 * otherwise come back as an editor behind a later sign-up, leaving nobody to manage people.
 *
 * Two sign-ups at the same moment on PostgreSQL may both read "no administrator" and both
 * become one: two admins, never none. An account reads "an administrator exists" only when one
 * is committed, and the only sign-up path that removes an account (the restart of a pending
 * one) asks this question again afterwards, for the account it makes in its place.
 */
export async function roleForNewUser(db: Db, defaultRole: Role): Promise<Role> {
  const admin = await db.kysely
    .selectFrom('user')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  return admin === undefined ? 'admin' : defaultRole;
}
