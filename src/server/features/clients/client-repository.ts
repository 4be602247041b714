import { type Insertable, type Kysely, type Transaction } from 'kysely';
import { cloneName, type Client, type ClientValues } from '#shared/clients.ts';
import { IMPORT_EVENT_FIELD } from '#shared/client-transfer.ts';
import type { ClientEvent } from '#shared/events.ts';
import type { ClientTable, CredentialTable, Database, ServerTable } from '#server/db/schema.ts';
import type { Db, Dialect } from '#server/db/database.ts';
import { newRecordId, newRecordStamps } from '#server/db/record-id.ts';
import { joinKey } from '#server/db/join-key.ts';
import { compiledRead } from '#server/db/compiled-read.ts';
import { presentClient } from './client-presenter.ts';
import type { SecretBox } from '#server/secrets.ts';
import {
  CREDENTIAL_SECRET_COLUMNS,
  clientPasswordName,
  joinedPassword,
  newPasswordCredential,
  sealedColumns,
  type CredentialMaterial,
} from '../credentials/credential-secrets.ts';
import type { CredentialKind } from '#shared/servers.ts';
import { newPrimaryServer, updatePrimaryServer } from './primary-server.ts';
import {
  newListedServer,
  readServerLists,
  replaceServerList,
  type ListedServer,
  type StoredServer,
} from '../servers/server-list-writes.ts';
import { DUPLICATED_FROM_FIELD_PREFIX, type Actor } from '#shared/events.ts';
import type { Access } from '#shared/people.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import { resolveProblems, serverProblemKeys } from '#server/features/issues/problem-issues.ts';
import { changedFields, tagsBefore } from './changed-fields.ts';
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
import { chunks, ROWS_PER_INSERT, IDS_PER_STATEMENT } from '#server/db/chunks.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';

type CurrentClient = Client & { primaryServerId: string | null };

/**
 * Another import (or a create) wrote a client or credential under an id this import creates,
 * after this one looked the ids up: nothing of this import was written, and run again it
 * updates what the other wrote.
 */
export class ImportedMeanwhileError extends Error {
  override name = 'ImportedMeanwhileError';
  constructor() {
    super('Some of these clients were imported meanwhile: run the import again.');
  }
}

export type UpdateResult =
  | { status: 'updated'; client: Client }
  | { status: 'not_found' }
  | { status: 'conflict'; current: Client };

export type RestoreResult =
  { status: 'restored'; client: Client } | { status: 'not_found' } | { status: 'not_deleted' };

/**
 * A stored client as an import compares it: as presented, its password in clear, and all its
 * servers.
 */
export interface StoredClient {
  /** Without who created and changed it: an import's plan does not look at them. */
  client: Client;
  /** '' when it has none. */
  password: string;
  servers: StoredServer[];
}

/**
 * What an import writes, each with the position of its document in the file. A client with
 * `servers` gets exactly those (see replaceServerList); one without has `values.server` stored
 * over its primary server, as the client form does.
 */
export interface ClientImportWrites {
  /** New vault credentials, under the ids the file gives them. */
  credentials: readonly {
    id: string;
    name: string;
    kind: CredentialKind;
    material: CredentialMaterial;
  }[];
  /** New clients; those without an id get a new one. */
  creates: readonly {
    index: number;
    id: string | undefined;
    values: ClientValues;
    servers?: readonly ListedServer[];
  }[];
  /** Stored clients as the import found them, the values to store and the fields that change. */
  updates: readonly {
    index: number;
    before: Client;
    values: ClientValues;
    fields: readonly string[];
    servers?: readonly ListedServer[];
  }[];
}

export interface ImportWriteOptions {
  /** False: only plan (a dry run, or a file refused for its invalid documents). */
  write: boolean;
  actor: NewEvent['actor'];
  /** Called as the writes go on; `total` counts the clients to write. */
  onProgress?: (done: number, total: number) => void;
}

/** A created client's rows: its credential (a form password) first, then client, servers. */
interface ImportedRows {
  client: Insertable<ClientTable>;
  servers: Insertable<ServerTable>[];
  credential: Insertable<CredentialTable> | null;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

// With its primary server and that server's credential kind (a password or not). Who created
// and last changed it, by email (display names are anyone's to change), by scalar subqueries
// rather than left joins: the same answer (user ids are unique), and SQLite plans the
// subqueries as two primary-key lookups where the joins cost several times more.
function selectClients(db: Kysely<Database> | Transaction<Database>) {
  return db
    .selectFrom('client')
    .leftJoin('server', 'server.id', 'client.primaryServerId')
    .leftJoin('credential', 'credential.id', 'server.credentialId')
    .selectAll('client')
    .select([
      'server.host as serverHost',
      'server.port as serverPort',
      'server.username as serverUsername',
      'server.private as serverPrivate',
      'server.uiDir as serverUiDir',
      'credential.kind as credentialKind',
    ])
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

/** One client by id, as selectClients reads it: every read of one client, and each write's. */
function clientByIdRead(db: Kysely<Database>) {
  return compiledRead((id: string) => selectClients(db).where('client.id', '=', joinKey(id)));
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
  readonly #byId: ReturnType<typeof clientByIdRead>;

  constructor(db: Db, box: SecretBox, onCommitted: () => void) {
    this.#db = db.kysely;
    this.#dialect = db.dialect;
    this.#box = box;
    this.#onCommitted = onCommitted;
    this.#byId = clientByIdRead(db.kysely);
    this.#group = new GroupCommit(db.kysely, {
      beforeCommit: async (trx, events) => void (await appendEvents(trx, db.dialect, events)),
      onCommitted,
    });
  }

  async list(db: Kysely<Database> | Transaction<Database> = this.#db): Promise<Client[]> {
    const rows = await selectClients(db).orderBy('client.createdAt').orderBy('client.id').execute();
    return rows.map(presentClient);
  }

  /** The client, or inside `db`'s transaction as that transaction sees it. */
  async get(
    id: string,
    db: Kysely<Database> | Transaction<Database> = this.#db,
  ): Promise<Client | undefined> {
    const [row] = await this.#byId(db, id);
    return row ? presentClient(row) : undefined;
  }

  /** The client's events, newest first; undefined when neither it nor any event exists. */
  async history(id: string): Promise<ClientEvent[] | undefined> {
    const events = await readClientHistory(this.#db, id);
    if (events.length > 0) return events;
    return (await this.get(id)) ? [] : undefined;
  }

  /**
   * A new client's rows: the client, its primary server and the credential holding the
   * form's password (insert in that order: credential, client, server).
   */
  #newRows(
    id: string,
    values: ClientValues,
    actor: NewEvent['actor'],
    at: string,
    defaultStartDate: string,
  ) {
    const context = { dialect: this.#dialect, box: this.#box, actor, at };
    const { server, credential } = newPrimaryServer(context, { id, ...values }, values.server);
    const client = {
      id,
      ...clientColumns(values, defaultStartDate),
      primaryServerId: server.id,
      ...newRecordStamps(actor, at),
    };
    return { client, server, credential };
  }

  /**
   * Stores `values` over the client as it was: its row (only while still at the version it was
   * read at), then its primary server. False when another writer changed it in between; else
   * the client's columns as stored, whether any server row was written, and the ids of the
   * servers a list of `servers` removed.
   */
  async #change(
    trx: Transaction<Database>,
    before: CurrentClient,
    values: ClientValues,
    actor: NewEvent['actor'],
    at: string,
    /** All its servers, replacing the stored ones (an import): then `values.server` is not read. */
    servers?: { stored: readonly StoredServer[]; wanted: readonly ListedServer[] },
  ): Promise<
    | false
    | { columns: UpdatedColumns; serversWritten: boolean; removedServerIds: readonly string[] }
  > {
    const columns = updatedColumns(values, before, actor, at);
    const result = await trx
      .updateTable('client')
      .set(columns)
      .where('id', '=', before.id)
      .where('version', '=', before.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    const context = { trx, dialect: this.#dialect, box: this.#box, actor, at };
    if (servers) {
      const removed = await replaceServerList(context, before.id, servers.stored, servers.wanted);
      return { columns, serversWritten: true, removedServerIds: removed };
    }
    const client = { ...before, ...values };
    const written = await updatePrimaryServer(context, client, before.server, values.server);
    return { columns, serversWritten: written, removedServerIds: [] };
  }

  /** Writes that arrive together share one transaction and one flush to disk. */
  #write<T>(work: Work<T, NewEvent>): Promise<T> {
    return this.#group.run(work);
  }

  /**
   * A write's answer is the client as its rows now are, made from what the write read and
   * stored rather than read again: the group commit runs its writes one after another, and a
   * statement fewer in each is a shorter wait for every write behind it. `client-routes.test.ts`
   * holds each answer to a read of the client right after.
   */
  create(values: ClientValues, actor: Actor): Promise<Client> {
    return this.#write(async (trx, at, record) => {
      const id = newRecordId();
      const rows = this.#newRows(id, values, actor, at, today());
      if (rows.credential) await trx.insertInto('credential').values(rows.credential).execute();
      await trx.insertInto('client').values(rows.client).execute();
      await trx.insertInto('server').values(rows.server).execute();
      record({ kind: 'client.created', clientId: id, actor, at, fields: [] });
      return presentClient({
        ...rows.client,
        serverHost: rows.server.host,
        serverPort: rows.server.port,
        serverUsername: rows.server.username,
        serverPrivate: rows.server.private,
        serverUiDir: rows.server.uiDir,
        credentialKind: rows.credential?.kind ?? null,
        // An actor is named by email (events.ts), as the read names who wrote a row.
        createdByEmail: actor.name,
        updatedByEmail: actor.name,
      });
    });
  }

  /**
   * The client is read before its write joins a batch, outside the batch's transaction: the
   * update is then made only while the row is still at the version read, and that version goes
   * up with every change to the client or to what it shows of its primary server
   * (server-writes.ts), so the row read is the row the update replaces.
   */
  async update(
    id: string,
    values: ClientValues,
    readVersion: number,
    actor: Actor,
  ): Promise<UpdateResult> {
    const [row] = await this.#byId(this.#db, id);
    if (!row) return { status: 'not_found' };
    const current = presentClient(row);
    if (current.version !== readVersion) return { status: 'conflict', current };
    const before = { ...current, primaryServerId: row.primaryServerId };
    const fields = changedFields(before, values);
    return this.#write(async (trx, at, record) => {
      const changed = await this.#change(trx, before, values, actor, at);
      // A writer (here or on another instance) may have won between the read and this update.
      if (!changed) {
        const now = await this.get(id, trx);
        return now ? { status: 'conflict', current: now } : { status: 'not_found' };
      }
      record({
        kind: 'client.updated',
        clientId: id,
        actor,
        at,
        fields,
        ...tagsBefore(before, fields),
      });
      const client = changed.serversWritten
        ? (await this.get(id, trx))!
        : presentClient({ ...row, ...changed.columns, updatedByEmail: actor.name });
      return { status: 'updated', client };
    });
  }

  /**
   * A copy of the client with copies of its servers. A password the form stored is copied into
   * a credential of the copy's own (changing one client's password must not change the
   * other's); an SSH key or token from the vault is shared, as the vault is for.
   */
  duplicate(id: string, actor: Actor): Promise<Client | undefined> {
    return this.#write(async (trx, at, record) => {
      const source = await trx
        .selectFrom('client')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!source) return undefined;
      const servers = await trx
        .selectFrom('server')
        .leftJoin('credential', 'credential.id', 'server.credentialId')
        .selectAll('server')
        .select(['credential.kind as credentialKind', ...CREDENTIAL_SECRET_COLUMNS])
        .where('server.clientId', '=', id)
        .orderBy('server.position')
        .execute();
      const copyId = newRecordId();
      const name = cloneName(source.name);
      const copies = servers.map((server) => {
        const {
          credentialKind,
          credentialSecret,
          credentialSealedForClient,
          credentialPassphrase,
          ...row
        } = server;
        const plain = joinedPassword(this.#box, {
          credentialId: row.credentialId,
          credentialKind,
          credentialSecret,
          credentialSealedForClient,
          credentialPassphrase,
        });
        const password =
          plain === null
            ? null
            : newPasswordCredential(
                this.#box,
                clientPasswordName({ name, code: source.code }),
                plain,
                actor,
                at,
              );
        const copy = {
          ...row,
          id: newRecordId(),
          clientId: copyId,
          credentialId: password?.id ?? row.credentialId,
          ...newRecordStamps(actor, at),
        };
        return { from: row.id, copy, password };
      });
      const passwords = copies.flatMap(({ password }) => (password ? [password] : []));
      for (const part of chunks(passwords, ROWS_PER_INSERT)) {
        await trx.insertInto('credential').values(part).execute();
      }
      const primary = copies.find(({ from }) => from === source.primaryServerId);
      await trx
        .insertInto('client')
        .values({
          ...source,
          id: copyId,
          name,
          primaryServerId: primary?.copy.id ?? null,
          ...newRecordStamps(actor, at),
        })
        .execute();
      for (const part of chunks(copies, ROWS_PER_INSERT)) {
        await trx
          .insertInto('server')
          .values(part.map(({ copy }) => copy))
          .execute();
      }
      record({
        kind: 'client.duplicated',
        clientId: copyId,
        actor,
        at,
        fields: [`${DUPLICATED_FROM_FIELD_PREFIX}${id}`],
      });
      return (await this.get(copyId, trx))!;
    });
  }

  /** Deletes the client, keeping its last row and servers so the delete can be undone. */
  delete(id: string, actor: Actor): Promise<boolean> {
    return this.#bulk(actor, (context) => deleteClients(context, [id])).then(
      (outcome) => outcome.status === 'done',
    );
  }

  /**
   * Puts a deleted client back with its id, version, fields and servers; its history was never
   * removed. `not_deleted`: it exists (restored already, or never deleted); `not_found`:
   * nothing is known under that id.
   */
  restore(id: string, actor: Actor, access: Access): Promise<RestoreResult> {
    return this.#bulk(actor, async (context) => {
      const outcome = await restoreClients(context, [id], access);
      if (outcome.status === 'done') {
        return { status: 'restored', client: (await this.get(id, context.trx))! };
      }
      return { status: outcome.status === 'not_deleted' ? 'not_deleted' : 'not_found' };
    });
  }

  /**
   * Bulk writes (client-bulk-writes.ts): each is one write of the group commit, so all of it
   * commits or none, with one event per client written, appended with the batch's events
   * under the one lock and woken into the live feed with one notification.
   */
  #bulk<T>(actor: Actor, run: (context: BulkContext) => Promise<T>): Promise<T> {
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

  bulkRestore(ids: readonly string[], actor: Actor, access: Access): Promise<BulkOutcome> {
    return this.#bulk(actor, (context) => restoreClients(context, ids, access));
  }

  /**
   * An import, in ONE transaction of its own: all of it is written, or nothing. `plan` is
   * given the stored clients under `ids` and which of `credentialIds` the vault has, and says
   * what to write; the client rows stay locked on PostgreSQL until the end, as another
   * instance could edit one in between. Rows are written as `create` and `update` write them.
   * A created id that a deleted client had replaces its snapshot, so that client can no longer
   * be restored over the new one. The events come last, as every write takes the event lock
   * last (see appendEvent): new credentials first, then the clients in file order.
   */
  async importClients<W extends ClientImportWrites>(
    ids: readonly string[],
    credentialIds: readonly string[],
    plan: (stored: ReadonlyMap<string, StoredClient>, vault: ReadonlySet<string>) => W,
    options: ImportWriteOptions,
  ): Promise<W> {
    const writes = await this.#db.transaction().execute(async (trx) => {
      const { stored, primaries, deleted } = await this.#importLookup(trx, ids);
      const vault = new Set<string>();
      for (const chunk of chunks(credentialIds, IDS_PER_STATEMENT)) {
        let query = trx.selectFrom('credential').select('id').where('id', 'in', chunk);
        // Kept until the end: a vault delete on another instance waits, so the servers written
        // here never point at a credential that went meanwhile.
        if (this.#dialect === 'postgres') query = query.forUpdate();
        for (const { id } of await query.execute()) vault.add(id);
      }
      const planned = plan(stored, vault);
      if (options.write) {
        try {
          await this.#writeImport(trx, planned, { stored, primaries, deleted }, options);
        } catch (error) {
          // On PostgreSQL the lookup above cannot lock a row that does not exist yet: two
          // imports of one new id both plan to create it, and the later insert waits for the
          // other to commit and then hits the primary key. A retry would update it instead.
          if (isUniqueViolation(error)) throw new ImportedMeanwhileError();
          throw error;
        }
      }
      return planned;
    });
    if (options.write) this.#onCommitted();
    return writes;
  }

  /** The stored clients under `ids` (locked on PostgreSQL), and which ids a deleted client had. */
  async #importLookup(trx: Transaction<Database>, ids: readonly string[]) {
    const stored = new Map<string, StoredClient>();
    const primaries = new Map<string, string | null>();
    const deleted = new Set<string>();
    for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
      let query = selectClients(trx)
        .select(CREDENTIAL_SECRET_COLUMNS)
        .where('client.id', 'in', chunk);
      // Locks the client rows until the import ends (only theirs: PostgreSQL locks no row of an
      // outer join's nullable side).
      if (this.#dialect === 'postgres') query = query.forUpdate('client');
      const rows = await query.execute();
      const servers = await readServerLists(
        trx,
        rows.map((row) => row.id),
      );
      for (const row of rows) {
        const password = joinedPassword(this.#box, row) ?? '';
        const client = presentClient({ ...row, createdByEmail: null, updatedByEmail: null });
        stored.set(row.id, { client, password, servers: servers.get(row.id) ?? [] });
        primaries.set(row.id, row.primaryServerId);
      }
      const snapshots = await trx
        .selectFrom('deletedClient')
        .select('id')
        .where('id', 'in', chunk)
        .execute();
      for (const { id } of snapshots) deleted.add(id);
    }
    return { stored, primaries, deleted };
  }

  async #writeImport(
    trx: Transaction<Database>,
    writes: ClientImportWrites,
    found: {
      stored: ReadonlyMap<string, StoredClient>;
      primaries: ReadonlyMap<string, string | null>;
      deleted: ReadonlySet<string>;
    },
    options: ImportWriteOptions,
  ): Promise<void> {
    const { actor, onProgress } = options;
    const at = new Date().toISOString();
    const defaultStartDate = today();
    const creates = writes.creates.map((create) => ({ ...create, id: create.id ?? newRecordId() }));
    const total = creates.length + writes.updates.length;
    let done = 0;
    const events: (NewEvent & { index: number })[] = [];
    const context = { dialect: this.#dialect, box: this.#box, actor, at };

    for (const chunk of chunks(writes.credentials, ROWS_PER_INSERT)) {
      await trx
        .insertInto('credential')
        .values(
          chunk.map(({ id, name, kind, material }) => ({
            id,
            name,
            kind,
            ...sealedColumns(this.#box, id, material),
            revealedAt: null,
            revealedBy: null,
            ...newRecordStamps(actor, at),
          })),
        )
        .execute();
    }
    for (const { id, material } of writes.credentials) {
      const fields = [
        'name',
        'kind',
        'secret',
        ...(material.passphrase === null ? [] : ['passphrase']),
        ...(material.publicKey === null ? [] : ['publicKey', 'fingerprint']),
        IMPORT_EVENT_FIELD,
      ];
      // Before every client's event: the clients' servers use them.
      events.push({
        index: -1,
        kind: 'credential.created',
        clientId: null,
        credentialId: id,
        actor,
        at,
        fields,
      });
    }

    const replaced = creates.flatMap(({ id }) => (found.deleted.has(id) ? [id] : []));
    for (const chunk of chunks(replaced, IDS_PER_STATEMENT)) {
      await trx.deleteFrom('deletedClient').where('id', 'in', chunk).execute();
    }
    for (const chunk of chunks(creates, ROWS_PER_INSERT)) {
      const rows = chunk.map(({ id, values, servers }): ImportedRows => {
        if (servers === undefined) {
          const { client, server, credential } = this.#newRows(
            id,
            values,
            actor,
            at,
            defaultStartDate,
          );
          return { client, servers: [server], credential };
        }
        const listed = servers.map((server, position) =>
          newListedServer(context, id, position, server),
        );
        const primary = listed.find((_row, position) => servers[position]!.primary);
        const client = {
          id,
          ...clientColumns(values, defaultStartDate),
          primaryServerId: primary?.id ?? null,
          ...newRecordStamps(actor, at),
        };
        return { client, servers: listed, credential: null };
      });
      const credentials = rows.flatMap(({ credential }) => (credential ? [credential] : []));
      if (credentials.length > 0) await trx.insertInto('credential').values(credentials).execute();
      await trx
        .insertInto('client')
        .values(rows.map(({ client }) => client))
        .execute();
      const servers = rows.flatMap((row) => row.servers);
      for (const part of chunks(servers, ROWS_PER_INSERT)) {
        await trx.insertInto('server').values(part).execute();
      }
      for (const { index, id } of chunk) {
        const fields = [IMPORT_EVENT_FIELD];
        events.push({ index, kind: 'client.created', clientId: id, actor, at, fields });
      }
      done += chunk.length;
      onProgress?.(done, total);
    }
    const removedServerIds: string[] = [];
    for (const { index, before, values, fields, servers } of writes.updates) {
      const primaryServerId = found.primaries.get(before.id) ?? null;
      const stored = found.stored.get(before.id)?.servers ?? [];
      const list = servers === undefined ? undefined : { stored, wanted: servers };
      const changed = await this.#change(
        trx,
        { ...before, primaryServerId },
        values,
        actor,
        at,
        list,
      );
      if (changed) removedServerIds.push(...changed.removedServerIds);
      events.push({
        index,
        kind: 'client.updated',
        clientId: before.id,
        actor,
        at,
        fields: [...fields, IMPORT_EVENT_FIELD],
        ...tagsBefore(before, fields),
      });
      done += 1;
      if (done % ROWS_PER_INSERT === 0 || done === total) onProgress?.(done, total);
    }
    // No check will reach a server the list dropped to resolve its problem issues: they are
    // resolved now, by the system, as deleting the server does. After every row write and
    // before the import's own events, as it takes the event lock (see appendEvent).
    for (const chunk of chunks(removedServerIds, IDS_PER_STATEMENT)) {
      await resolveProblems(trx, this.#dialect, chunk.flatMap(serverProblemKeys), at);
    }
    events.sort((a, b) => a.index - b.index);
    await appendEvents(trx, this.#dialect, events);
  }

  /**
   * The primary server's password in clear ('' when it has none), recorded in the event log
   * as read by `actor` and on the credential as last revealed.
   */
  readPassword(id: string, actor: Actor): Promise<{ password: string } | undefined> {
    return this.#write(async (trx, at, record) => {
      const row = await trx
        .selectFrom('client')
        .leftJoin('server', 'server.id', 'client.primaryServerId')
        .leftJoin('credential', 'credential.id', 'server.credentialId')
        .select(['credential.kind as credentialKind', ...CREDENTIAL_SECRET_COLUMNS])
        .where('client.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      record({ kind: 'client.password_read', clientId: id, actor, at, fields: [] });
      const password = joinedPassword(this.#box, row);
      if (password === null) return { password: '' };
      await trx
        .updateTable('credential')
        .set({ revealedAt: at, revealedBy: actor.id })
        .where('id', '=', row.credentialId!)
        .execute();
      return { password };
    });
  }
}

/** A client's own columns as an update of `before` stores them. */
function updatedColumns(
  values: ClientValues,
  before: { startDate: string; version: number },
  actor: NewEvent['actor'],
  at: string,
) {
  return {
    ...clientColumns(values, before.startDate),
    updatedAt: at,
    updatedBy: actor.id,
    version: before.version + 1,
  };
}
type UpdatedColumns = ReturnType<typeof updatedColumns>;

/** The client table's columns for the given values (tags and domains as JSON lists). */
export function clientColumns(values: ClientValues, defaultStartDate: string) {
  return {
    name: values.name,
    code: values.code,
    description: values.description,
    tags: JSON.stringify(values.tags),
    startDate: values.startDate ?? defaultStartDate,
    domains: JSON.stringify(values.domains),
  };
}
