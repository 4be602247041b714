import { randomBytes } from 'node:crypto';
import { type Kysely, type Transaction } from 'kysely';
import { CLONE_SUFFIX, type Client, type ClientValues } from '#shared/clients.ts';
import { IMPORT_EVENT_FIELD } from '#shared/client-transfer.ts';
import type { ClientEvent } from '#shared/events.ts';
import type { Database } from '#server/db/schema.ts';
import type { Db, Dialect } from '#server/db/database.ts';
import { fromBool } from '#server/db/codec.ts';
import { presentClient } from './client-presenter.ts';
import { clientPasswordPlace, type SecretBox } from '#server/secrets.ts';
import type { Actor } from '#shared/events.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import { changedFields } from './changed-fields.ts';
import { readClientHistory } from './client-history.ts';
import { GroupCommit, type Work } from '#server/db/group-commit.ts';
import {
  changeTags,
  deleteClients,
  restoreClients,
  type BulkContext,
  type BulkOutcome,
  type TagChange,
} from './client-bulk-writes.ts';

export type UpdateResult =
  | { status: 'updated'; client: Client }
  | { status: 'not_found' }
  | { status: 'conflict'; current: Client };

export type RestoreResult =
  { status: 'restored'; client: Client } | { status: 'not_found' } | { status: 'not_deleted' };

/** A stored client as an import compares it: as presented, and its password in clear. */
export interface StoredClient {
  /** Without who created and changed it: an import's plan does not look at them. */
  client: Client;
  /** '' when it has none. */
  password: string;
}

/** What an import writes, each with the position of its document in the file. */
export interface ClientImportWrites {
  /** New clients; those without an id get a new one. */
  creates: readonly { index: number; id: string | undefined; values: ClientValues }[];
  /** Stored clients as the import found them, the values to store and the fields that change. */
  updates: readonly {
    index: number;
    before: Client;
    values: ClientValues;
    fields: readonly string[];
  }[];
}

export interface ImportWriteOptions {
  /** False: only plan (a dry run, or a file refused for its invalid documents). */
  write: boolean;
  actor: NewEvent['actor'];
  /** Called as the writes go on; `total` counts the clients to write. */
  onProgress?: (done: number, total: number) => void;
}

/** Rows per insert statement: well under the bound-parameter limits of both databases. */
const ROWS_PER_INSERT = 200;
const IDS_PER_LOOKUP = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** URL-safe random id, 16 characters (96 bits). */
export function newClientId(): string {
  return randomBytes(12).toString('base64url');
}

/** Who made a new record and when; a new record starts at version 1. */
export function newRecordStamps(actor: { id: string | null }, at: string) {
  return { createdAt: at, createdBy: actor.id, updatedAt: at, updatedBy: actor.id, version: 1 };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Clients in the database. Every write and the event that records it commit in one
 * transaction; `onCommitted` then wakes the live feed.
 */
export class ClientRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;
  readonly #box: SecretBox;
  readonly #onCommitted: () => void;
  readonly #group: GroupCommit<NewEvent>;

  constructor(db: Db, box: SecretBox, onCommitted: () => void) {
    this.#db = db.kysely;
    this.#dialect = db.dialect;
    this.#box = box;
    this.#onCommitted = onCommitted;
    this.#group = new GroupCommit(db.kysely, {
      beforeCommit: async (trx, events) => void (await appendEvents(trx, db.dialect, events)),
      onCommitted,
    });
  }

  // Who created and last changed it, by email (display names are anyone's to change), by
  // scalar subqueries rather than left joins: the same answer (user ids are unique), and SQLite
  // plans the subqueries as two primary-key lookups where the joins cost several times more.
  #select(db: Kysely<Database> | Transaction<Database>) {
    return db
      .selectFrom('client')
      .selectAll('client')
      .select((eb) => [
        eb
          .selectFrom('user')
          .select('user.email')
          .whereRef('user.id', '=', 'client.createdBy')
          .as('createdByEmail'),
        eb
          .selectFrom('user')
          .select('user.email')
          .whereRef('user.id', '=', 'client.updatedBy')
          .as('updatedByEmail'),
      ]);
  }

  async list(db: Kysely<Database> | Transaction<Database> = this.#db): Promise<Client[]> {
    const rows = await this.#select(db).orderBy('client.createdAt').orderBy('client.id').execute();
    return rows.map(presentClient);
  }

  /** The client, or inside `db`'s transaction as that transaction sees it. */
  async get(
    id: string,
    db: Kysely<Database> | Transaction<Database> = this.#db,
  ): Promise<Client | undefined> {
    const row = await this.#select(db).where('client.id', '=', id).executeTakeFirst();
    return row ? presentClient(row) : undefined;
  }

  /** The client's events, newest first; undefined when neither it nor any event exists. */
  async history(id: string): Promise<ClientEvent[] | undefined> {
    const events = await readClientHistory(this.#db, id);
    if (events.length > 0) return events;
    return (await this.get(id)) ? [] : undefined;
  }

  /** A new client's row: its columns, the password sealed for this row, who made it and when. */
  #newRow(
    id: string,
    values: ClientValues,
    actor: NewEvent['actor'],
    at: string,
    defaultStartDate: string,
  ) {
    return {
      id,
      ...clientColumns(values, defaultStartDate, this.#dialect),
      serverPassword: values.server.password
        ? this.#box.seal(values.server.password, clientPasswordPlace(id))
        : null,
      ...newRecordStamps(actor, at),
    };
  }

  /** What storing `values` over the client as it was sets in its row. */
  #changes(before: Client, values: ClientValues, actor: NewEvent['actor'], at: string) {
    const password = values.server.password;
    return {
      ...clientColumns(values, before.startDate, this.#dialect),
      // Omitted: keep the stored password. Empty: remove it.
      ...(password === undefined
        ? {}
        : {
            serverPassword:
              password === '' ? null : this.#box.seal(password, clientPasswordPlace(before.id)),
          }),
      updatedAt: at,
      updatedBy: actor.id,
      version: before.version + 1,
    };
  }

  /** Writes that arrive together share one transaction and one flush to disk. */
  #write<T>(work: Work<T, NewEvent>): Promise<T> {
    return this.#group.run(work);
  }

  create(values: ClientValues, actor: Actor): Promise<Client> {
    return this.#write(async (trx, at, record) => {
      const id = newClientId();
      await trx
        .insertInto('client')
        .values(this.#newRow(id, values, actor, at, today()))
        .execute();
      record({ kind: 'client.created', clientId: id, actor, at, fields: [] });
      return (await this.get(id, trx))!;
    });
  }

  update(
    id: string,
    values: ClientValues,
    readVersion: number,
    actor: Actor,
  ): Promise<UpdateResult> {
    return this.#write(async (trx, at, record) => {
      const before = await this.get(id, trx);
      if (!before) return { status: 'not_found' };
      if (before.version !== readVersion) return { status: 'conflict', current: before };
      const fields = changedFields(before, values);
      const result = await trx
        .updateTable('client')
        .set(this.#changes(before, values, actor, at))
        .where('id', '=', id)
        .where('version', '=', readVersion)
        .executeTakeFirst();
      // A writer on another instance may have won between the read and this update.
      if (Number(result.numUpdatedRows) === 0) {
        const current = await this.get(id, trx);
        return current ? { status: 'conflict', current } : { status: 'not_found' };
      }
      record({ kind: 'client.updated', clientId: id, actor, at, fields });
      return { status: 'updated', client: (await this.get(id, trx))! };
    });
  }

  duplicate(id: string, actor: Actor): Promise<Client | undefined> {
    return this.#write(async (trx, at, record) => {
      const source = await trx
        .selectFrom('client')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!source) return undefined;
      const copyId = newClientId();
      // Sealed for its own row: a value sealed for the original does not open in the copy.
      const serverPassword =
        source.serverPassword === null
          ? null
          : this.#box.seal(
              this.#box.open(source.serverPassword, clientPasswordPlace(id)),
              clientPasswordPlace(copyId),
            );
      await trx
        .insertInto('client')
        .values({
          ...source,
          id: copyId,
          serverPassword,
          name: `${source.name}${CLONE_SUFFIX}`,
          ...newRecordStamps(actor, at),
        })
        .execute();
      record({ kind: 'client.duplicated', clientId: copyId, actor, at, fields: [`from:${id}`] });
      return (await this.get(copyId, trx))!;
    });
  }

  /** Deletes the client, keeping its last row in `deletedClient` so it can be restored. */
  delete(id: string, actor: Actor): Promise<boolean> {
    return this.#write(async (trx, at, record) => {
      const row = await trx
        .selectFrom('client')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return false;
      const result = await trx.deleteFrom('client').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx.deleteFrom('deletedClient').where('id', '=', id).execute();
      await trx
        .insertInto('deletedClient')
        .values({ ...row, deletedAt: at, deletedBy: actor.id })
        .execute();
      record({ kind: 'client.deleted', clientId: id, actor, at, fields: [] });
      return true;
    });
  }

  /**
   * Puts a deleted client back with its id, version and fields (the password still sealed);
   * its history was never removed. `not_deleted`: it exists (restored already, or never
   * deleted); `not_found`: nothing is known under that id.
   */
  restore(id: string, actor: Actor): Promise<RestoreResult> {
    return this.#write(async (trx, at, record) => {
      const snapshot = await trx
        .selectFrom('deletedClient')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!snapshot) {
        const exists = await trx
          .selectFrom('client')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst();
        return { status: exists ? 'not_deleted' : 'not_found' };
      }
      const { deletedAt: _deletedAt, deletedBy: _deletedBy, ...row } = snapshot;
      // The people named may have been removed since; the row must not point at nobody.
      const known = new Set(
        (
          await trx
            .selectFrom('user')
            .select('id')
            .where('id', 'in', [row.createdBy ?? '', row.updatedBy ?? ''])
            .execute()
        ).map((user) => user.id),
      );
      await trx
        .insertInto('client')
        .values({
          ...row,
          createdBy: row.createdBy !== null && known.has(row.createdBy) ? row.createdBy : null,
          updatedBy: row.updatedBy !== null && known.has(row.updatedBy) ? row.updatedBy : null,
        })
        .execute();
      await trx.deleteFrom('deletedClient').where('id', '=', id).execute();
      record({ kind: 'client.restored', clientId: id, actor, at, fields: [] });
      return { status: 'restored', client: (await this.get(id, trx))! };
    });
  }

  /**
   * Bulk writes (client-bulk-writes.ts): each is one write of the group commit, so all of it
   * commits or none (its savepoint), with one event per client written, appended with the
   * batch's events under the one lock and woken into the live feed with one notification.
   */
  #bulk(actor: Actor, run: (context: BulkContext) => Promise<BulkOutcome>): Promise<BulkOutcome> {
    return this.#write((trx, at, record) =>
      run({ trx, dialect: this.#dialect, at, actor, record }),
    );
  }

  bulkTags(ids: readonly string[], change: TagChange, actor: Actor): Promise<BulkOutcome> {
    return this.#bulk(actor, (context) => changeTags(context, ids, change));
  }

  bulkDelete(ids: readonly string[], actor: Actor): Promise<BulkOutcome> {
    return this.#bulk(actor, (context) => deleteClients(context, ids));
  }

  bulkRestore(ids: readonly string[], actor: Actor): Promise<BulkOutcome> {
    return this.#bulk(actor, (context) => restoreClients(context, ids));
  }

  /**
   * An import, in ONE transaction of its own: all of it is written, or nothing. `plan` is
   * given the stored clients under `ids` and says what to write; their rows stay locked on
   * PostgreSQL until the end, as another instance could edit one in between. Rows are written
   * as `create` and `update` write them. A created id that a deleted client had replaces its
   * snapshot, so that client can no longer be restored over the new one. The events come last,
   * as every write takes the event lock last (see appendEvent), in file order.
   */
  async importClients<W extends ClientImportWrites>(
    ids: readonly string[],
    plan: (stored: ReadonlyMap<string, StoredClient>) => W,
    options: ImportWriteOptions,
  ): Promise<W> {
    const writes = await this.#db.transaction().execute(async (trx) => {
      const { stored, deleted } = await this.#importLookup(trx, ids);
      const planned = plan(stored);
      if (options.write) await this.#writeImport(trx, planned, deleted, options);
      return planned;
    });
    if (options.write) this.#onCommitted();
    return writes;
  }

  /** The stored clients under `ids` (locked on PostgreSQL), and which ids a deleted client had. */
  async #importLookup(trx: Transaction<Database>, ids: readonly string[]) {
    const stored = new Map<string, StoredClient>();
    const deleted = new Set<string>();
    for (const chunk of chunks(ids, IDS_PER_LOOKUP)) {
      let query = trx.selectFrom('client').selectAll().where('id', 'in', chunk);
      if (this.#dialect === 'postgres') query = query.forUpdate();
      for (const row of await query.execute()) {
        stored.set(row.id, {
          client: presentClient({ ...row, createdByEmail: null, updatedByEmail: null }),
          password:
            row.serverPassword === null
              ? ''
              : this.#box.open(row.serverPassword, clientPasswordPlace(row.id)),
        });
      }
      const snapshots = await trx
        .selectFrom('deletedClient')
        .select('id')
        .where('id', 'in', chunk)
        .execute();
      for (const { id } of snapshots) deleted.add(id);
    }
    return { stored, deleted };
  }

  async #writeImport(
    trx: Transaction<Database>,
    writes: ClientImportWrites,
    deleted: ReadonlySet<string>,
    options: ImportWriteOptions,
  ): Promise<void> {
    const { actor, onProgress } = options;
    const at = new Date().toISOString();
    const defaultStartDate = today();
    const creates = writes.creates.map((create) => ({ ...create, id: create.id ?? newClientId() }));
    const total = creates.length + writes.updates.length;
    let done = 0;
    const events: (NewEvent & { index: number })[] = [];

    const replaced = creates.flatMap(({ id }) => (deleted.has(id) ? [id] : []));
    for (const chunk of chunks(replaced, IDS_PER_LOOKUP)) {
      await trx.deleteFrom('deletedClient').where('id', 'in', chunk).execute();
    }
    for (const chunk of chunks(creates, ROWS_PER_INSERT)) {
      await trx
        .insertInto('client')
        .values(
          chunk.map(({ id, values }) => this.#newRow(id, values, actor, at, defaultStartDate)),
        )
        .execute();
      for (const { index, id } of chunk) {
        const fields = [IMPORT_EVENT_FIELD];
        events.push({ index, kind: 'client.created', clientId: id, actor, at, fields });
      }
      done += chunk.length;
      onProgress?.(done, total);
    }
    for (const { index, before, values, fields } of writes.updates) {
      await trx
        .updateTable('client')
        .set(this.#changes(before, values, actor, at))
        .where('id', '=', before.id)
        .execute();
      events.push({
        index,
        kind: 'client.updated',
        clientId: before.id,
        actor,
        at,
        fields: [...fields, IMPORT_EVENT_FIELD],
      });
      done += 1;
      if (done % ROWS_PER_INSERT === 0 || done === total) onProgress?.(done, total);
    }
    events.sort((a, b) => a.index - b.index);
    await appendEvents(trx, this.#dialect, events);
  }

  /** The stored password in clear, recorded in the event log as read by `actor`. */
  readPassword(id: string, actor: Actor): Promise<{ password: string } | undefined> {
    return this.#write(async (trx, at, record) => {
      const row = await trx
        .selectFrom('client')
        .select('serverPassword')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      record({ kind: 'client.password_read', clientId: id, actor, at, fields: [] });
      return {
        password:
          row.serverPassword === null
            ? ''
            : this.#box.open(row.serverPassword, clientPasswordPlace(id)),
      };
    });
  }
}

/** The client table's columns for the given values (tags and domains as JSON lists). */
export function clientColumns(values: ClientValues, defaultStartDate: string, dialect: Dialect) {
  return {
    name: values.name,
    code: values.code,
    description: values.description,
    tags: JSON.stringify(values.tags),
    startDate: values.startDate ?? defaultStartDate,
    serverHost: values.server.host,
    serverPort: values.server.port,
    serverUsername: values.server.username,
    serverPrivate: fromBool(values.server.private, dialect),
    serverUiDir: values.server.uiDir,
    domains: JSON.stringify(values.domains),
  };
}
