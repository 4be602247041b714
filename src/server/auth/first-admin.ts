import type { Role } from '#shared/people.ts';
import type { Db } from '#server/db/database.ts';

/**
 * The first person of a new installation is its administrator: the first to confirm an email
 * sign-up, to come through a provider or to be made by the `user` command. Everyone after gets
 * DEFAULT_ROLE.
 *
 * An email sign-up counts when it is confirmed, not when it is made: whoever signs up an
 * address chooses its password, and a sign-up that nobody confirms (a stranger's, of a
 * colleague's address or of one nobody reads) would otherwise hold the role, making the
 * operator who signs up next an editor. So such an account starts with DEFAULT_ROLE and
 * confirm-email.ts (or the `user` command's `create`) makes it admin while there is none.
 *
 * Two people made or confirmed at the same moment on PostgreSQL may both read "no
 * administrator" and both become one: two admins, never none.
 */
export async function awaitsFirstAdmin(db: Db): Promise<boolean> {
  const admin = await db.kysely
    .selectFrom('user')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  return admin === undefined;
}

/** The role a new account starts with; called by Better Auth's user-create hook. */
export async function roleForNewUser(
  db: Db,
  defaultRole: Role,
  made: { byEmailSignUp: boolean },
): Promise<Role> {
  return !made.byEmailSignUp && (await awaitsFirstAdmin(db)) ? 'admin' : defaultRole;
}
