import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialect } from '#server/testing/test-database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import type { Db } from '#server/db/database.ts';
import { toBool } from '#server/db/codec.ts';
import { SecretBox, clientPasswordPlace, credentialPlace } from '#server/secrets.ts';
import { openStoredSecrets } from '#server/secret-key-rotation.ts';
import { ClientRepository } from '#server/features/clients/client-repository.ts';
import { MIGRATED_SERVER_LABEL, migratedPasswordName } from './0007-servers-and-credentials.ts';

/**
 * Migration 0007 moves each client's one server into a server record and its password into a
 * credential. A database at 0006 with 10,000 clients (and deleted ones kept for undo) of every
 * shape is migrated, and every value is looked for where it went.
 */

const KEY = 'migration 0007 test key, long enough to be a key';
const CLIENTS = 10_000;
const DELETED = 30;
const BATCH = 200;

/** Text a client field may hold: quotes, shell, markup, other scripts, emoji, control bytes. */
const HOSTILE = [
  `it's "quoted" \\ back`,
  '$(touch /tmp/x); rm -rf / `id`',
  '<script>alert(1)</script>',
  'Ünïcødé 名前 عربى',
  '🚀 rocket',
  'tab\there\u0003\u202e',
  '',
];

interface OldClient {
  id: string;
  name: string;
  code: string;
  description: string;
  tags: string;
  startDate: string;
  serverHost: string;
  serverPort: number;
  serverUsername: string;
  serverPassword: string | null;
  serverPrivate: number | boolean;
  serverUiDir: string;
  domains: string;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
  version: number;
}

const box = new SecretBox(KEY);
const plain = new Map<string, string>();

function oldClient(i: number, dialect: 'sqlite' | 'postgres'): OldClient {
  const id = `c${String(i).padStart(6, '0')}`;
  const hostile = HOSTILE[i % HOSTILE.length]!;
  const password = i % 3 === 0 ? null : `pw ${i} ${hostile}`;
  if (password !== null) plain.set(id, password);
  const at = new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();
  return {
    id,
    name: `Client ${i} ${hostile}`,
    code: `C${i}`,
    description: hostile,
    tags: JSON.stringify([`t${i % 7}`]),
    startDate: '2024-01-01',
    serverHost: i % 5 === 0 ? '' : `host-${i}.example.com`,
    serverPort: 22 + (i % 3),
    serverUsername: i % 4 === 0 ? '' : `user${i}`,
    serverPassword: password === null ? null : box.seal(password, clientPasswordPlace(id)),
    serverPrivate: dialect === 'postgres' ? i % 2 === 0 : i % 2,
    serverUiDir: `/srv/${hostile}`,
    domains: JSON.stringify([`https://c${i}.example.com`]),
    createdAt: at,
    createdBy: i % 2 === 0 ? 'u1' : null,
    updatedAt: at,
    updatedBy: null,
    version: 1 + (i % 4),
  };
}

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
let before: OldClient[];
let deleted: OldClient[];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables as they were at 0006
const untyped = (): Kysely<any> => db.kysely;

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0006-user-list-view' });
  db = opened.db;
  const dialect = db.dialect;
  const at = new Date().toISOString();
  await untyped()
    .insertInto('user')
    .values({
      id: 'u1',
      name: 'Ada',
      email: 'ada@example.com',
      emailVerified: dialect === 'postgres' ? true : 1,
      image: null,
      createdAt: at,
      updatedAt: at,
      disabled: dialect === 'postgres' ? false : 0,
    })
    .execute();
  before = Array.from({ length: CLIENTS }, (_, i) => oldClient(i, dialect));
  deleted = Array.from({ length: DELETED }, (_, i) => oldClient(CLIENTS + i, dialect));
  for (let i = 0; i < before.length; i += BATCH) {
    await untyped()
      .insertInto('client')
      .values(before.slice(i, i + BATCH))
      .execute();
  }
  await untyped()
    .insertInto('deletedClient')
    .values(deleted.map((row) => ({ ...row, deletedAt: at, deletedBy: 'u1' })))
    .execute();

  // To the latest: the app's code below reads and writes the tables as they are now.
  expect((await migrateToLatest(db))[0]).toBe('0007-servers-and-credentials');
}, 300_000);
afterAll(async () => opened.close());

describe(`migration 0007 on ${testDialect()}`, () => {
  it('gives every client its server as its primary server record, value for value', async () => {
    const rows = await db.kysely
      .selectFrom('client')
      .innerJoin('server', 'server.id', 'client.primaryServerId')
      .select([
        'client.id',
        'client.name',
        'client.description',
        'client.version',
        'server.clientId',
        'server.position',
        'server.label',
        'server.host',
        'server.port',
        'server.username',
        'server.uiDir',
        'server.private',
        'server.credentialId',
        'server.checkStatus',
      ])
      .orderBy('client.id')
      .execute();
    expect(rows).toHaveLength(CLIENTS);
    expect(await count('server')).toBe(CLIENTS);
    rows.forEach((row, i) => {
      const old = before[i]!;
      expect(row).toEqual({
        id: old.id,
        name: old.name,
        description: old.description,
        version: old.version,
        clientId: old.id,
        position: 0,
        label: MIGRATED_SERVER_LABEL,
        host: old.serverHost,
        port: old.serverPort,
        username: old.serverUsername,
        uiDir: old.serverUiDir,
        private: row.private,
        credentialId: row.credentialId,
        checkStatus: 'not_checked',
      });
      expect(toBool(row.private)).toBe(toBool(old.serverPrivate));
      expect(row.credentialId === null).toBe(old.serverPassword === null);
    });
  });

  it('turns each stored password into a password credential that opens to the same text', async () => {
    const rows = await db.kysely
      .selectFrom('server')
      .innerJoin('credential', 'credential.id', 'server.credentialId')
      .innerJoin('client', 'client.id', 'server.clientId')
      .select([
        'client.id as clientId',
        'client.name as clientName',
        'client.code as clientCode',
        'credential.id',
        'credential.name',
        'credential.kind',
        'credential.secret',
        'credential.sealedForClient',
      ])
      .execute();
    const withPassword = before.filter((row) => row.serverPassword !== null);
    expect(rows).toHaveLength(withPassword.length);
    const sealedBefore = new Map(withPassword.map((row) => [row.id, row.serverPassword]));
    for (const row of rows) {
      expect(row.kind).toBe('password');
      expect(row.name).toBe(migratedPasswordName({ name: row.clientName, code: row.clientCode }));
      // Moved as it was, still sealed at the client's place, which it names.
      expect(row.secret).toBe(sealedBefore.get(row.clientId));
      expect(row.sealedForClient).toBe(row.clientId);
      expect(box.open(row.secret, clientPasswordPlace(row.clientId))).toBe(plain.get(row.clientId));
    }
  });

  it('keeps deleted clients restorable with their server and password', async () => {
    const snapshots = await db.kysely
      .selectFrom('deletedClient')
      .select(['id', 'primaryServerId', 'servers'])
      .orderBy('id')
      .execute();
    expect(snapshots).toHaveLength(DELETED);
    snapshots.forEach((snapshot, i) => {
      const old = deleted[i]!;
      const servers = JSON.parse(snapshot.servers) as Record<string, unknown>[];
      expect(servers).toHaveLength(1);
      expect(servers[0]).toMatchObject({
        id: snapshot.primaryServerId,
        clientId: old.id,
        host: old.serverHost,
        port: old.serverPort,
        username: old.serverUsername,
        uiDir: old.serverUiDir,
        private: toBool(old.serverPrivate),
      });
      expect(servers[0]!.credentialId === null).toBe(old.serverPassword === null);
    });
  });

  it('drops the old columns', async () => {
    for (const table of ['client', 'deletedClient']) {
      const columns = await columnsOf(table);
      expect(columns).toContain('primaryServerId');
      expect(columns.filter((name) => name.startsWith('server'))).toEqual(
        table === 'deletedClient' ? ['servers'] : [],
      );
    }
  });

  it('re-seals the moved passwords at their credentials at start; the app reads them', async () => {
    const moved = plain.size;
    expect(await openStoredSecrets(db.kysely, KEY)).toBe(moved);
    expect(await openStoredSecrets(db.kysely, KEY)).toBe(0);
    const credentials = await db.kysely
      .selectFrom('credential')
      .select(['id', 'secret', 'sealedForClient'])
      .execute();
    expect(credentials.every((row) => row.sealedForClient === null)).toBe(true);
    for (const row of credentials)
      expect(() => box.open(row.secret, credentialPlace(row.id))).not.toThrow();

    const repository = new ClientRepository(db, box, () => undefined);
    const actor = { id: 'u1', name: 'Ada' };
    for (const i of [1, 2, 3, 4, 5, 9_998, 9_999]) {
      const old = before[i]!;
      const client = await repository.get(old.id);
      expect(client?.server).toEqual({
        host: old.serverHost,
        port: old.serverPort,
        username: old.serverUsername,
        private: toBool(old.serverPrivate),
        uiDir: old.serverUiDir,
        hasPassword: old.serverPassword !== null,
      });
      expect(await repository.readPassword(old.id, actor)).toEqual({
        password: plain.get(old.id) ?? '',
      });
    }
    const gone = deleted.find((row) => row.serverPassword !== null)!;
    const admin = { userId: actor.id, role: 'admin' as const, tags: null };
    expect((await repository.restore(gone.id, actor, admin)).status).toBe('restored');
    expect((await repository.get(gone.id))?.server.host).toBe(gone.serverHost);
    expect(await repository.readPassword(gone.id, actor)).toEqual({ password: plain.get(gone.id) });
  });
});

async function count(table: 'server' | 'credential'): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function columnsOf(table: string): Promise<string[]> {
  if (db.dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`
      select column_name as name from information_schema.columns
      where table_name = ${table} and table_schema = current_schema()
      order by ordinal_position`.execute(db.kysely);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{
    name: string;
  }>`select name from pragma_table_info(${table})`.execute(db.kysely);
  return rows.map((row) => row.name);
}
