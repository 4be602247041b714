import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/** Rows moved per statement: well under the bound-parameter limits of both databases. */
const BATCH = 200;

const SERVER_COLUMNS = [
  'serverHost',
  'serverPort',
  'serverUsername',
  'serverPassword',
  'serverPrivate',
  'serverUiDir',
] as const;

/** The label a client's one server gets when it becomes a server record. */
export const MIGRATED_SERVER_LABEL = 'main';

/** The name of the credential a client's stored password becomes. */
export function migratedPasswordName(client: { name: string; code: string }): string {
  return `Password of ${client.name} (${client.code})`;
}

interface OldClientRow {
  id: string;
  name: string;
  code: string;
  serverHost: string;
  serverPort: number;
  serverUsername: string;
  serverPassword: string | null;
  serverPrivate: number | boolean;
  serverUiDir: string;
  createdAt: string | Date;
  createdBy: string | null;
  updatedAt: string | Date;
  updatedBy: string | null;
}

/**
 * A client has servers, and a server may use a credential from the vault. Each client's one
 * server becomes its primary server record, and its stored password a `password` credential
 * used by that server. The sealed password is moved as it is, still sealed at the client's
 * place (the migration has no key): `credential.sealedForClient` names that place until the
 * start re-seals it at the credential's own (secret-key-rotation.ts, resealMovedPasswords).
 * A deleted client kept for undo keeps its servers as a JSON snapshot.
 */
export function serversAndCredentials(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    // The rows are read and written through an untyped handle: this migration must keep working
    // against the tables as they were, whatever schema.ts says later.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('credential')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('sealedForClient', 'text')
        .addColumn('publicKey', 'text')
        .addColumn('fingerprint', 'text')
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('createdBy', 'text')
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedBy', 'text')
        .addColumn('revealedAt', t.timestamp)
        .addColumn('revealedBy', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('server')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('clientId', 'text', (c) =>
          c.notNull().references('client.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('port', 'integer', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('uiDir', 'text', (c) => c.notNull())
        .addColumn('private', t.boolean, (c) => c.notNull())
        .addColumn('credentialId', 'text', (c) => c.references('credential.id'))
        .addColumn('hostKeyAlgorithm', 'text')
        .addColumn('hostKeyFingerprint', 'text')
        .addColumn('checkStatus', 'text', (c) => c.notNull().defaultTo('not_checked'))
        .addColumn('checkReason', 'text')
        .addColumn('checkedAt', t.timestamp)
        .addColumn('statusSince', t.timestamp)
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('createdBy', 'text')
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedBy', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('server_clientId_position_idx')
        .on('server')
        .columns(['clientId', 'position'])
        .execute();
      await db.schema
        .createIndex('server_credentialId_idx')
        .on('server')
        .column('credentialId')
        .execute();
      for (const table of ['client', 'deletedClient']) {
        await db.schema.alterTable(table).addColumn('primaryServerId', 'text').execute();
      }
      await db.schema
        .alterTable('deletedClient')
        .addColumn('servers', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();

      await moveLiveClients(db);
      await moveDeletedClients(db);

      for (const table of ['client', 'deletedClient']) {
        for (const column of SERVER_COLUMNS) {
          await db.schema.alterTable(table).dropColumn(column).execute();
        }
      }
    },
  };
}

function newId(): string {
  return randomBytes(12).toString('base64url');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables as they were
type AnyDb = Kysely<any>;

/** A client's server and, when it has a password, the credential that holds it. */
function split(row: OldClientRow) {
  const credential =
    row.serverPassword === null
      ? null
      : {
          id: newId(),
          name: migratedPasswordName(row),
          kind: 'password',
          secret: row.serverPassword,
          sealedForClient: row.id,
          publicKey: null,
          fingerprint: null,
          createdAt: row.createdAt,
          createdBy: row.createdBy,
          updatedAt: row.updatedAt,
          updatedBy: row.updatedBy,
          revealedAt: null,
          revealedBy: null,
          version: 1,
        };
  const server = {
    id: newId(),
    clientId: row.id,
    position: 0,
    label: MIGRATED_SERVER_LABEL,
    host: row.serverHost,
    port: row.serverPort,
    username: row.serverUsername,
    uiDir: row.serverUiDir,
    private: row.serverPrivate,
    credentialId: credential?.id ?? null,
    hostKeyAlgorithm: null,
    hostKeyFingerprint: null,
    checkStatus: 'not_checked',
    checkReason: null,
    checkedAt: null,
    statusSince: null,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
    version: 1,
  };
  return { server, credential };
}

async function* batches(db: AnyDb, table: 'client' | 'deletedClient') {
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom(table)
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute()) as OldClientRow[];
    if (rows.length === 0) return;
    yield rows;
    after = rows.at(-1)!.id;
  }
}

async function moveLiveClients(db: AnyDb): Promise<void> {
  for await (const rows of batches(db, 'client')) {
    const parts = rows.map(split);
    const credentials = parts.flatMap((part) => (part.credential ? [part.credential] : []));
    if (credentials.length > 0) await db.insertInto('credential').values(credentials).execute();
    await db
      .insertInto('server')
      .values(parts.map((part) => part.server))
      .execute();
    // One statement for the batch: primaryServerId from the server just made for each client.
    await db
      .updateTable('client')
      .set((eb) => ({
        primaryServerId: eb
          .selectFrom('server')
          .select('server.id')
          .whereRef('server.clientId', '=', 'client.id')
          .where('server.position', '=', 0),
      }))
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  }
}

async function moveDeletedClients(db: AnyDb): Promise<void> {
  for await (const rows of batches(db, 'deletedClient')) {
    for (const row of rows) {
      const { server, credential } = split(row);
      if (credential) await db.insertInto('credential').values(credential).execute();
      await db
        .updateTable('deletedClient')
        .set({ primaryServerId: server.id, servers: JSON.stringify([snapshotOf(server)]) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

/** A server row as a deleted client's snapshot keeps it: plain JSON values. */
function snapshotOf(server: ReturnType<typeof split>['server']) {
  return {
    ...server,
    private: server.private === true || server.private === 1,
    createdAt: new Date(server.createdAt).toISOString(),
    updatedAt: new Date(server.updatedAt).toISOString(),
  };
}
