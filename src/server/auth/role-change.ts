import type { Role } from '#shared/people.ts';
import type { Db } from '#server/db/database.ts';
import { appendEvent, type NewEvent } from '#server/realtime/event-log.ts';

/** The change would leave the installation without an administrator. */
export class LastAdminError extends Error {
  override name = 'LastAdminError';
}

export type RoleChange =
  | { changed: true; from: Role; seq: number }
  | { changed: false; from: Role }
  | { changed: 'no-such-person' };

/**
 * Gives a person a role, with a `person.role_changed` event in the same transaction (field
 * names only: `role`). Refuses, with LastAdminError, to take the role away from the last
 * administrator: nobody could manage people and settings any more.
 *
 * On PostgreSQL the administrators' rows are locked first, so two demotions at once (of two
 * different admins) run one after the other and the second sees the first's result; SQLite
 * has one writer at a time.
 */
export async function changeRole(
  db: Db,
  change: { personId: string; role: Role; actor: NewEvent['actor'] },
): Promise<RoleChange> {
  return db.kysely.transaction().execute(async (trx): Promise<RoleChange> => {
    let admins = trx.selectFrom('user').select('id').where('role', '=', 'admin');
    if (db.dialect === 'postgres') admins = admins.forUpdate();
    const adminIds = (await admins.execute()).map((row) => row.id);
    const person = await trx
      .selectFrom('user')
      .select(['id', 'email', 'role'])
      .where('id', '=', change.personId)
      .executeTakeFirst();
    if (!person) return { changed: 'no-such-person' };
    const from = person.role as Role;
    if (from === change.role) return { changed: false, from };
    if (from === 'admin' && adminIds.length <= 1) {
      throw new LastAdminError(
        `${person.email} is the last administrator: make someone else an admin first, so someone can still manage people.`,
      );
    }
    await trx.updateTable('user').set({ role: change.role }).where('id', '=', person.id).execute();
    const seq = await appendEvent(trx, db.dialect, {
      kind: 'person.role_changed',
      clientId: null,
      personId: person.id,
      actor: change.actor,
      fields: ['role'],
      at: new Date().toISOString(),
    });
    return { changed: true, from, seq };
  });
}
