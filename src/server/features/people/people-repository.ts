import { forgetTrustedDevices } from '#server/auth/trusted-devices.ts';
import { forgetPendingSecondFactorSignIns } from '#server/auth/pending-second-factor.ts';
import { tokenRevokedEvent } from '#server/features/tokens/token-repository.ts';
import type { Transaction } from 'kysely';
import type { Actor } from '#shared/events.ts';
import { ADMIN_TAGS_MESSAGE, limitForRole, roleSchema, type Role } from '#shared/people.ts';
import {
  lastAdminMessage,
  unverifiedAccountMessage,
  type Person,
  type PersonPatch,
} from '#shared/people-admin.ts';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool, toBool, toIso } from '#server/db/codec.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import { parseAccessTags } from '#server/auth/access-tags.ts';

/** What a change to a person came to: done, no such person, or refused with a reason. */
export type PersonWriteResult =
  | { status: 'done' }
  | { status: 'not_found' }
  | { status: 'refused'; code: number; message: string; field?: string };

type Trx = Transaction<Database>;

/**
 * Everyone who has an account, and an administrator's changes to them. Each change and its
 * `person.*` event commit together; ending someone's sessions deletes the rows, so their next
 * request is refused at once (the session guard reads the session every time).
 */
export class PeopleRepository {
  readonly #db: Db;
  readonly #onCommitted: () => void;

  constructor(db: Db, onCommitted: () => void) {
    this.#db = db;
    this.#onCommitted = onCommitted;
  }

  async list(): Promise<Person[]> {
    const { kysely, dialect } = this.#db;
    const now = new Date();
    const [users, sessions, passkeys] = await Promise.all([
      kysely.selectFrom('user').selectAll().orderBy('createdAt').orderBy('id').execute(),
      kysely
        .selectFrom('session')
        .select(['id', 'userId', 'createdAt', 'updatedAt', 'ipAddress', 'userAgent'])
        .where('expiresAt', '>', dialect === 'postgres' ? now : now.toISOString())
        .orderBy('updatedAt', 'desc')
        .execute(),
      kysely
        .selectFrom('passkey')
        .select((eb) => ['userId', eb.fn.countAll<number>().as('count')])
        .groupBy('userId')
        .execute(),
    ]);
    const passkeysOf = new Map(passkeys.map((row) => [row.userId, Number(row.count)]));
    return users.map((user) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      // An unreadable role grants the least, as the session guard reads it.
      role: roleSchema.catch('viewer').parse(user.role),
      tags: tagsOf(user.tags),
      twoFactorEnabled: toBool(user.twoFactorEnabled),
      passkeys: passkeysOf.get(user.id) ?? 0,
      emailVerified: toBool(user.emailVerified),
      disabled: toBool(user.disabled),
      lastSignInAt: user.lastSignInAt === null ? null : toIso(user.lastSignInAt),
      createdAt: toIso(user.createdAt),
      devices: sessions
        .filter((session) => session.userId === user.id)
        .map((session) => ({
          id: session.id,
          createdAt: toIso(session.createdAt),
          lastSeenAt: toIso(session.updatedAt),
          ipAddress: session.ipAddress,
          userAgent: session.userAgent,
        })),
    }));
  }

  async get(id: string): Promise<Person | undefined> {
    return (await this.list()).find((person) => person.id === id);
  }

  /**
   * Changes a person's role, tags or whether they may sign in. Refuses (409) to leave the
   * installation without an enabled administrator: nobody could manage people any more, and
   * (400) a tag limit on an administrator (ADMIN_TAGS_MESSAGE says why). The
   * actor may be the command line (no id): `npm run user -- disable` makes the same change.
   */
  update(id: string, patch: PersonPatch, actor: NewEvent['actor']): Promise<PersonWriteResult> {
    return this.#run(async (trx, at, record) => {
      const person = await this.#lockPerson(trx, id);
      if (!person) return { status: 'not_found' };
      const wasRole = roleSchema.catch('viewer').parse(person.role);
      const wasDisabled = toBool(person.disabled);
      const role = patch.role ?? wasRole;
      const disabled = patch.disabled ?? wasDisabled;
      if (role === 'admin' && patch.tags !== undefined && patch.tags !== null) {
        return { status: 'refused', code: 400, message: ADMIN_TAGS_MESSAGE, field: 'tags' };
      }
      // One made administrator has their limit lifted with it.
      const tags = limitForRole(
        role,
        patch.tags === undefined
          ? person.tags
          : patch.tags === null
            ? null
            : JSON.stringify(patch.tags),
      );
      // Access given to an unverified account goes to whoever chose its password once the
      // address's owner follows the verification link they were sent.
      if (!toBool(person.emailVerified) && (role !== wasRole || tags !== person.tags)) {
        return {
          status: 'refused',
          code: 409,
          message: unverifiedAccountMessage(person.email),
          field: role !== wasRole ? 'role' : 'tags',
        };
      }
      const leavesAdmins = wasRole === 'admin' && !wasDisabled && (role !== 'admin' || disabled);
      if (leavesAdmins && (await this.#otherEnabledAdmins(trx, id)) === 0) {
        return {
          status: 'refused',
          code: 409,
          message: lastAdminMessage(person.email),
          field: patch.role !== undefined && role !== 'admin' ? 'role' : 'disabled',
        };
      }
      const event = (kind: NewEvent['kind'], fields: string[]) =>
        record({ kind, clientId: null, personId: id, actor, fields, at });
      if (role !== wasRole) {
        await trx.updateTable('user').set({ role, updatedAt: at }).where('id', '=', id).execute();
        // The new role is no secret, and the trail is read for exactly that.
        event('person.role_changed', ['role', `role:${role}`]);
      }
      if (tags !== person.tags) {
        await trx.updateTable('user').set({ tags, updatedAt: at }).where('id', '=', id).execute();
        event('person.tags_changed', ['tags']);
      }
      if (disabled !== wasDisabled) {
        await trx
          .updateTable('user')
          .set({ disabled: fromBool(disabled, this.#db.dialect), updatedAt: at })
          .where('id', '=', id)
          .execute();
        if (disabled) await trx.deleteFrom('session').where('userId', '=', id).execute();
        event(disabled ? 'person.disabled' : 'person.enabled', ['disabled']);
      }
      return { status: 'done' };
    });
  }

  /**
   * Ends every session of the person: signed out on every device at once. Their API tokens are
   * revoked with them (a stolen session could have made one that never expires), each with the
   * `person.token_revoked` event its owner's revoke writes, and a sign-in waiting for its second
   * factor and every browser trusted to skip it are forgotten.
   */
  signOutEverywhere(id: string, actor: Actor): Promise<PersonWriteResult> {
    return this.#run(async (trx, at, record) => {
      if (!(await this.#lockPerson(trx, id))) return { status: 'not_found' };
      await trx.deleteFrom('session').where('userId', '=', id).execute();
      await forgetPendingSecondFactorSignIns(trx, id);
      await forgetTrustedDevices(trx, id);
      record({ kind: 'person.signed_out', clientId: null, personId: id, actor, fields: [], at });
      const tokens = await trx
        .deleteFrom('apiToken')
        .where('userId', '=', id)
        .returning('scope')
        .execute();
      for (const token of tokens) record(tokenRevokedEvent(id, token.scope, actor, at));
      return { status: 'done' };
    });
  }

  /**
   * Removes the person's second factors (authenticator app, backup codes, passkeys), for
   * someone who lost their phone: they sign in with their password alone and set up anew.
   */
  resetSecondFactor(id: string, actor: Actor): Promise<PersonWriteResult> {
    return this.#run(async (trx, at, record) => {
      if (!(await this.#lockPerson(trx, id))) return { status: 'not_found' };
      await trx.deleteFrom('twoFactor').where('userId', '=', id).execute();
      await trx.deleteFrom('passkey').where('userId', '=', id).execute();
      await forgetTrustedDevices(trx, id);
      await trx
        .updateTable('user')
        .set({ twoFactorEnabled: fromBool(false, this.#db.dialect), updatedAt: at })
        .where('id', '=', id)
        .execute();
      record({
        kind: 'person.second_factor_reset',
        clientId: null,
        personId: id,
        actor,
        fields: ['twoFactor', 'passkeys'],
        at,
      });
      return { status: 'done' };
    });
  }

  async #run(
    work: (trx: Trx, at: string, record: (event: NewEvent) => void) => Promise<PersonWriteResult>,
  ): Promise<PersonWriteResult> {
    const events: NewEvent[] = [];
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      // On PostgreSQL, two administrators demoting each other at once must not both see the
      // other still an admin: every admin row is locked first, so such changes take turns.
      if (this.#db.dialect === 'postgres') {
        await trx
          .selectFrom('user')
          .select('id')
          .where('role', '=', 'admin')
          .orderBy('id')
          .forUpdate()
          .execute();
      }
      const outcome = await work(trx, new Date().toISOString(), (event) => events.push(event));
      await appendEvents(trx, this.#db.dialect, events);
      return outcome;
    });
    if (events.length > 0) this.#onCommitted();
    return result;
  }

  async #lockPerson(trx: Trx, id: string) {
    let query = trx
      .selectFrom('user')
      .select(['id', 'email', 'role', 'tags', 'disabled', 'emailVerified'])
      .where('id', '=', id);
    if (this.#db.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async #otherEnabledAdmins(trx: Trx, id: string): Promise<number> {
    const row = await trx
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('role', '=', 'admin' satisfies Role)
      .where('disabled', '=', fromBool(false, this.#db.dialect))
      .where('id', '!=', id)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}

/** The stored tag limit as the API shows it (null: every client). */
export function tagsOf(stored: string | null): string[] | null {
  const tags = parseAccessTags(stored);
  return tags === null ? null : [...tags];
}
