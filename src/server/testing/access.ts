import type { Role } from '#shared/people.ts';
import type { Session, TestServer } from './test-server.ts';
import { fromBool } from '#server/db/codec.ts';

/** A role and tag limit for a test's person; unset parts stay as they are. */
export interface TestAccess {
  role?: Role;
  /** null lifts the limit. */
  tags?: readonly string[] | null;
}

/**
 * Gives a signed-in test person a role and tag limit straight in the database, as an admin's
 * change would leave it: tests of what a role may do need not go through the People routes.
 * Takes effect on the person's next request (the session guard reads them every time).
 */
export async function setAccess(
  server: Pick<TestServer, 'app'>,
  session: Session,
  access: TestAccess,
): Promise<string> {
  const id = await idOf(session);
  const set: { role?: Role; tags?: string | null } = {};
  if (access.role !== undefined) set.role = access.role;
  if (access.tags !== undefined)
    set.tags = access.tags === null ? null : JSON.stringify(access.tags);
  if (Object.keys(set).length > 0) {
    await server.app.parts.db.kysely.updateTable('user').set(set).where('id', '=', id).execute();
  }
  return id;
}

/**
 * Makes every administrator but the people signed in in `sessions` an editor, straight in the
 * database: a test of the last-admin rule has to know who the admins are, and earlier tests'
 * people may be some (the first person of an installation is one).
 */
export async function onlyAdmins(
  server: Pick<TestServer, 'app'>,
  sessions: readonly Session[],
): Promise<void> {
  const ids = await Promise.all(sessions.map(idOf));
  await server.app.parts.db.kysely
    .updateTable('user')
    .set({ role: 'editor' })
    .where('role', '=', 'admin')
    .where('id', 'not in', ids)
    .execute();
}

/**
 * Disables a signed-in test person straight in the database and leaves their sessions, as a
 * sign-in that passed its check a moment before the disabling leaves one (disabling through
 * People or the `user` command deletes them). Returns their id.
 */
export async function disableLeavingSessions(
  server: Pick<TestServer, 'app'>,
  session: Session,
): Promise<string> {
  const id = await idOf(session);
  const { db } = server.app.parts;
  await db.kysely
    .updateTable('user')
    .set({ disabled: fromBool(true, db.dialect) })
    .where('id', '=', id)
    .execute();
  return id;
}

/** Who is signed in in `session`: their id and email. */
export async function whoIs(session: Session): Promise<{ id: string; email: string }> {
  const me = await session.json<{ id: string; email: string }>('GET', '/api/me');
  if (me.status !== 200) throw new Error(`/api/me answered ${me.status}`);
  return { id: me.body.id, email: me.body.email };
}

async function idOf(session: Session): Promise<string> {
  return (await whoIs(session)).id;
}
