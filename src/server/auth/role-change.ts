import type { Transaction } from 'kysely';
import { limitForRole, type Role } from '#shared/people.ts';
import { unverifiedAccountMessage } from '#shared/people-admin.ts';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool, toBool } from '#server/db/codec.ts';
import { appendEvent, type NewEvent } from '#server/realtime/event-log.ts';

/** The change is refused; the message says why, in the CLI's words. */
export class RoleChangeRefused extends Error {
  override name = 'RoleChangeRefused';
}

export type RoleChange =
  | { changed: true; from: Role; seq: number; liftedTags: boolean }
  | { changed: false; from: Role }
  | { changed: 'no-such-person' };

/**
 * Gives a person a role, with a `person.role_changed` event in the same transaction (field
 * names only: `role`); one made administrator has their tag limit lifted (limitForRole), with
 * a `person.tags_changed` event. Refuses, with RoleChangeRefused, to take the role away from
 * the last enabled administrator: nobody could manage people and settings any more (a disabled
 * one cannot sign in, so does not count, as on the People screen); and to change the role of an
 * account whose address is not verified: whoever signed it up chose its password, and the role
 * would be theirs once the address's owner follows the link (the People screen refuses it too).
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
    const person = await lockedPerson(db, trx, change.personId);
    if (!person) return { changed: 'no-such-person' };
    const from = person.role as Role;
    if (from === change.role) return { changed: false, from };
    if (!toBool(person.emailVerified)) {
      throw new RoleChangeRefused(unverifiedAccountMessage(person.email));
    }
    if (from === 'admin') await refuseLastAdmin(db, trx, person);
    const tags = limitForRole(change.role, person.tags);
    const liftsTags = tags !== person.tags;
    await trx
      .updateTable('user')
      .set({ role: change.role, tags })
      .where('id', '=', person.id)
      .execute();
    const event = (kind: NewEvent['kind'], fields: string[]) =>
      appendEvent(trx, db.dialect, {
        kind,
        clientId: null,
        personId: person.id,
        actor: change.actor,
        fields,
        at: new Date().toISOString(),
      });
    let seq = await event('person.role_changed', ['role']);
    if (liftsTags) seq = await event('person.tags_changed', ['tags']);
    return { changed: true, from, seq, liftedTags: liftsTags };
  });
}

/** The person's row, after locking every administrator's row on PostgreSQL. */
async function lockedPerson(db: Db, trx: Transaction<Database>, id: string) {
  if (db.dialect === 'postgres') {
    await trx
      .selectFrom('user')
      .select('id')
      .where('role', '=', 'admin' satisfies Role)
      .orderBy('id')
      .forUpdate()
      .execute();
  }
  return trx
    .selectFrom('user')
    .select(['id', 'email', 'role', 'disabled', 'tags', 'emailVerified'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Throws RoleChangeRefused when an enabled administrator is the only one. */
async function refuseLastAdmin(
  db: Db,
  trx: Transaction<Database>,
  person: { id: string; email: string; disabled: number | boolean },
): Promise<void> {
  if (toBool(person.disabled)) return;
  const others = await trx
    .selectFrom('user')
    .select('id')
    .where('role', '=', 'admin' satisfies Role)
    .where('disabled', '=', fromBool(false, db.dialect))
    .where('id', '!=', person.id)
    .limit(1)
    .executeTakeFirst();
  if (others === undefined) throw lastAdminError(person.email);
}

/** Why the last enabled administrator keeps the role (and stays enabled), in the CLI's words. */
export function lastAdminError(email: string): RoleChangeRefused {
  return new RoleChangeRefused(
    `${email} is the last administrator: make someone else an admin first, so someone can still manage people.`,
  );
}
