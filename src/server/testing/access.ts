import type { Role } from '#shared/people.ts';
import type { Session, TestServer } from './test-server.ts';

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
  const me = await session.json<{ id: string }>('GET', '/api/me');
  if (me.status !== 200) throw new Error(`setAccess: /api/me answered ${me.status}`);
  const set: { role?: Role; tags?: string | null } = {};
  if (access.role !== undefined) set.role = access.role;
  if (access.tags !== undefined)
    set.tags = access.tags === null ? null : JSON.stringify(access.tags);
  if (Object.keys(set).length > 0) {
    await server.app.parts.db.kysely
      .updateTable('user')
      .set(set)
      .where('id', '=', me.body.id)
      .execute();
  }
  return me.body.id;
}
