import type { ExpressionBuilder, Kysely, Transaction, Updateable } from 'kysely';
import type { Credential, CredentialSecret } from '#shared/credentials.ts';
import type { CredentialKind } from '#shared/servers.ts';
import type { Actor } from '#shared/events.ts';
import type { CredentialTable, Database } from '#server/db/schema.ts';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import {
  newCredential,
  openCredentialSecret,
  sealedColumns,
  type CredentialMaterial,
} from './credential-secrets.ts';
import {
  presentCredential,
  type CredentialRow,
  type CredentialUser,
} from './credential-presenter.ts';

export type WriteResult =
  | { status: 'done'; credential: Credential }
  | { status: 'not_found' }
  | { status: 'conflict'; current: Credential };

export type DeleteResult =
  { status: 'deleted' } | { status: 'not_found' } | { status: 'in_use'; servers: CredentialUser[] };

type Reader = Kysely<Database> | Transaction<Database>;

/** The email of the user whose id is in `column`: who did it, as history names people. */
function emailOf(
  eb: ExpressionBuilder<Database, 'credential'>,
  column: 'credential.createdBy' | 'credential.updatedBy' | 'credential.revealedBy',
) {
  return eb.selectFrom('user').select('user.email').whereRef('user.id', '=', column);
}

/** The names of the columns `material` sets: what a create or rotate event lists. */
function materialFields(material: CredentialMaterial, before?: { hadPassphrase: boolean }) {
  return [
    'secret',
    ...(material.passphrase !== null || before?.hadPassphrase ? ['passphrase'] : []),
    ...(material.publicKey === null ? [] : ['publicKey', 'fingerprint']),
  ];
}

/**
 * The vault: credentials with the servers that use them, and every write to them with its
 * `credential.*` event in one transaction. Its secrets leave only through `reveal`.
 */
export class CredentialRepository {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #onCommitted: () => void;

  constructor(db: Db, box: SecretBox, onCommitted: () => void) {
    this.#db = db;
    this.#box = box;
    this.#onCommitted = onCommitted;
  }

  // Every column but the sealed ones: a list never reads a secret.
  #select(db: Reader) {
    return db
      .selectFrom('credential')
      .select([
        'credential.id',
        'credential.name',
        'credential.kind',
        'credential.publicKey',
        'credential.fingerprint',
        'credential.createdAt',
        'credential.updatedAt',
        'credential.revealedAt',
        'credential.version',
      ])
      .select((eb) => [
        eb('credential.passphrase', 'is not', null).as('hasPassphrase'),
        emailOf(eb, 'credential.createdBy').as('createdByEmail'),
        emailOf(eb, 'credential.updatedBy').as('updatedByEmail'),
        emailOf(eb, 'credential.revealedBy').as('revealedByEmail'),
      ]);
  }

  /** The servers that use each credential (all of them, or `id`'s), in their clients' order. */
  async #users(db: Reader, id?: string): Promise<Map<string, CredentialUser[]>> {
    let query = db
      .selectFrom('server')
      .innerJoin('client', 'client.id', 'server.clientId')
      .select([
        'server.id',
        'server.label',
        'server.credentialId',
        'client.id as clientId',
        'client.name as clientName',
        'client.code as clientCode',
      ])
      .where('server.credentialId', 'is not', null);
    if (id !== undefined) query = query.where('server.credentialId', '=', id);
    const rows = await query
      .orderBy('client.createdAt')
      .orderBy('client.id')
      .orderBy('server.position')
      .execute();
    const users = new Map<string, CredentialUser[]>();
    for (const row of rows) {
      const list = users.get(row.credentialId!) ?? [];
      list.push({
        id: row.id,
        label: row.label,
        client: { id: row.clientId, name: row.clientName, code: row.clientCode },
      });
      users.set(row.credentialId!, list);
    }
    return users;
  }

  #present(rows: CredentialRow[], users: Map<string, CredentialUser[]>): Credential[] {
    return rows.map((row) => presentCredential(row, users.get(row.id) ?? []));
  }

  /** Every credential, by name (case and accents aside, the same on both databases). */
  async list(): Promise<Credential[]> {
    const [rows, users] = await Promise.all([
      this.#select(this.#db.kysely).execute(),
      this.#users(this.#db.kysely),
    ]);
    const exact = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return this.#present(rows, users).sort(
      (a, b) =>
        a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
        exact(a.name, b.name) ||
        exact(a.id, b.id),
    );
  }

  async get(id: string, db: Reader = this.#db.kysely): Promise<Credential | undefined> {
    const row = await this.#select(db).where('credential.id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return this.#present([row], await this.#users(db, id))[0];
  }

  /** The stored kind, which decides what a rotation takes; undefined when there is none. */
  async kindOf(id: string): Promise<CredentialKind | undefined> {
    const row = await this.#db.kysely
      .selectFrom('credential')
      .select('kind')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.kind;
  }

  /** Runs `work` and its events in one transaction, and wakes the listeners after commit. */
  async #write<T>(
    work: (trx: Transaction<Database>, at: string, record: (event: NewEvent) => void) => Promise<T>,
  ): Promise<T> {
    const events: NewEvent[] = [];
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      const out = await work(trx, new Date().toISOString(), (event) => events.push(event));
      await appendEvents(trx, this.#db.dialect, events);
      return out;
    });
    if (events.length > 0) this.#onCommitted();
    return result;
  }

  create(
    fields: { name: string; kind: CredentialKind },
    material: CredentialMaterial,
    actor: Actor,
  ): Promise<Credential> {
    return this.#write(async (trx, at, record) => {
      const row = newCredential(this.#box, fields, material, actor, at);
      await trx.insertInto('credential').values(row).execute();
      record({
        kind: 'credential.created',
        clientId: null,
        credentialId: row.id,
        actor,
        at,
        fields: ['name', 'kind', ...materialFields(material)],
      });
      return (await this.get(row.id, trx))!;
    });
  }

  /**
   * Changes the row only while it is still at `version`: a conflict answers with the
   * credential as it is now.
   */
  async #change(
    trx: Transaction<Database>,
    id: string,
    version: number,
    set: Omit<Updateable<CredentialTable>, 'version'>,
  ): Promise<'done' | 'not_found' | 'conflict'> {
    const result = await trx
      .updateTable('credential')
      .set({ ...set, version: version + 1 })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return 'done';
    const exists = await trx
      .selectFrom('credential')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return exists ? 'conflict' : 'not_found';
  }

  async #answer(
    trx: Transaction<Database>,
    id: string,
    outcome: 'done' | 'not_found' | 'conflict',
  ): Promise<WriteResult> {
    if (outcome === 'not_found') return { status: 'not_found' };
    const credential = (await this.get(id, trx))!;
    return outcome === 'done'
      ? { status: 'done', credential }
      : { status: 'conflict', current: credential };
  }

  rename(id: string, name: string, version: number, actor: Actor): Promise<WriteResult> {
    return this.#write(async (trx, at, record) => {
      const before = await trx
        .selectFrom('credential')
        .select('name')
        .where('id', '=', id)
        .executeTakeFirst();
      const outcome = await this.#change(trx, id, version, {
        name,
        updatedAt: at,
        updatedBy: actor.id,
      });
      if (outcome === 'done') {
        const fields = before?.name === name ? [] : ['name'];
        record({ kind: 'credential.updated', clientId: null, credentialId: id, actor, at, fields });
      }
      return this.#answer(trx, id, outcome);
    });
  }

  rotate(
    id: string,
    material: CredentialMaterial,
    version: number,
    actor: Actor,
  ): Promise<WriteResult> {
    return this.#write(async (trx, at, record) => {
      const before = await trx
        .selectFrom('credential')
        .select('passphrase')
        .where('id', '=', id)
        .executeTakeFirst();
      const outcome = await this.#change(trx, id, version, {
        ...sealedColumns(this.#box, id, material),
        updatedAt: at,
        updatedBy: actor.id,
      });
      if (outcome === 'done') {
        const fields = materialFields(material, { hadPassphrase: before?.passphrase != null });
        record({ kind: 'credential.rotated', clientId: null, credentialId: id, actor, at, fields });
      }
      return this.#answer(trx, id, outcome);
    });
  }

  /**
   * The secret in clear for the person who asked, recorded on the row and in the history. Not
   * an edit: the version stays, so a reveal never turns a colleague's save into a conflict.
   */
  reveal(
    id: string,
    purpose: 'reveal' | 'copy',
    actor: Actor,
  ): Promise<CredentialSecret | undefined> {
    return this.#write(async (trx, at, record) => {
      const row = await trx
        .selectFrom('credential')
        .select(['id', 'secret', 'sealedForClient', 'passphrase'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const secret = openCredentialSecret(this.#box, row);
      await trx
        .updateTable('credential')
        .set({ revealedAt: at, revealedBy: actor.id })
        .where('id', '=', id)
        .execute();
      record({
        kind: 'credential.revealed',
        clientId: null,
        credentialId: id,
        actor,
        at,
        fields: [purpose],
      });
      return secret;
    });
  }

  /** Removes an unused credential; one that servers use stays, and they are named. */
  delete(id: string, actor: Actor): Promise<DeleteResult> {
    return this.#write(async (trx, at, record): Promise<DeleteResult> => {
      // Locked first on PostgreSQL: a server saved meanwhile with this credential waits for
      // this transaction (its foreign key check), so the count below cannot miss it.
      let find = trx.selectFrom('credential').select('id').where('id', '=', id);
      if (this.#db.dialect === 'postgres') find = find.forUpdate();
      if (!(await find.executeTakeFirst())) return { status: 'not_found' };
      const servers = (await this.#users(trx, id)).get(id) ?? [];
      if (servers.length > 0) return { status: 'in_use', servers };
      await trx.deleteFrom('credential').where('id', '=', id).execute();
      record({
        kind: 'credential.deleted',
        clientId: null,
        credentialId: id,
        actor,
        at,
        fields: [],
      });
      return { status: 'deleted' };
    });
  }
}
