import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseTarget } from '#server/config.ts';
import { createTestPostgresDatabase, testDialect } from '#server/testing/test-database.ts';
import { runScript } from '#server/testing/run-script.ts';
import { startTestServer, type TestServer } from '#server/testing/test-server.ts';
import { dataDirDatabase } from '#server/config.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { CopyRefused } from './copy-database-result.ts';
import { copyDatabase } from './copy-database.ts';
import { openDatabase } from './database.ts';
import { migrateTo, migrateToLatest } from './migrate.ts';

/**
 * A refused `db:copy` or restore leaves its target as it found it: no tables added to another
 * application's database, no empty migrated database where there was none.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-copy-refusal-'));
const drops: (() => Promise<void>)[] = [];
let current: DatabaseTarget;
let older: DatabaseTarget;

/** A SQLite database migrated as far as `to` (every migration without). */
async function sqliteSource(name: string, to?: string): Promise<DatabaseTarget> {
  const target = { kind: 'sqlite', file: path.join(dir, name) } as const;
  const db = openDatabase(target);
  await (to ? migrateTo(db, to) : migrateToLatest(db));
  await db.close();
  return target;
}

/** A target of the dialect under test, and the names of the tables it holds. */
async function target(
  prepare: string[] = [],
): Promise<{ to: DatabaseTarget; url: string; tables(): Promise<string[]> }> {
  let to: DatabaseTarget;
  let url: string;
  if (testDialect() === 'postgres') {
    const database = await createTestPostgresDatabase();
    drops.push(database.drop);
    to = { kind: 'postgres', url: database.url, poolSize: 2 };
    url = database.url;
  } else {
    const file = path.join(fs.mkdtempSync(path.join(dir, 'target-')), 'other.db');
    to = { kind: 'sqlite', file };
    url = `sqlite:${file}`;
  }
  const tables = async () => {
    const db = openDatabase(to);
    try {
      const all = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
      return all.filter((t) => !t.schema || t.schema === 'public').map((t) => t.name);
    } finally {
      await db.close();
    }
  };
  if (prepare.length > 0) {
    const db = openDatabase(to);
    for (const statement of prepare) await sql.raw(statement).execute(db.kysely);
    await db.close();
  }
  return { to, url, tables };
}

beforeAll(async () => {
  current = await sqliteSource('current.db');
  older = await sqliteSource('older.db', '0017-webhook-delivery-keep');
}, 60_000);
afterAll(async () => {
  for (const drop of drops) await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('db:copy into a database with tables of another application refuses it and adds none', async () => {
  const other = await target(['create table "invoices" ("id" integer primary key, "total" text)']);
  const copy = await runScript('src/server/cli/db-copy.ts', [
    '--from',
    `sqlite:${(current as { file: string }).file}`,
    '--to',
    other.url,
  ]);
  expect(copy.code).toBe(1);
  expect(await other.tables()).toEqual(['invoices']);
  expect(copy.err).toMatch(
    /^Not copied: The target database holds tables that are not .*invoices/m,
  );
}, 60_000);

it('a copy refused for its source creates no target database', async () => {
  const empty = await target();
  await expect(copyDatabase(older, empty.to, { sessions: false })).rejects.toMatchObject({
    name: 'CopyRefused',
    message: expect.stringMatching(/^The source database is from an older version \(missing 0018-/),
  });
  expect(await empty.tables()).toEqual([]);
  if (empty.to.kind === 'sqlite') {
    // Looking at the tables above opened (and so made) the file: ask again from scratch.
    fs.rmSync(empty.to.file);
    await expect(copyDatabase(older, empty.to, { sessions: false })).rejects.toThrow(/older/);
    expect(fs.existsSync(empty.to.file)).toBe(false);
  }
}, 60_000);

it('a refused restore leaves the new data folder without a database', async () => {
  const backup = path.join(dir, 'older.backup.db');
  fs.copyFileSync((older as { file: string }).file, backup);
  if (testDialect() === 'postgres') {
    const empty = await target();
    await expect(restoreDatabase(backup, empty.to)).rejects.toThrow(
      /^The backup is from an older version/,
    );
    expect(await empty.tables()).toEqual([]);
    return;
  }
  const dataDir = path.join(dir, 'data-restored');
  const restore = await runScript('src/server/cli/restore.ts', [backup, '--data-dir', dataDir]);
  expect(restore.code).toBe(1);
  expect(restore.err).toMatch(
    /^Not restored: The backup is from an older version of Clients Manager \(missing 0018-[^)]*\): restore it with the version that made it/m,
  );
  expect(fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []).toEqual([]);
}, 60_000);

it('still copies into a new database, and into an empty one this version migrated', async () => {
  const fresh = await target();
  expect((await copyDatabase(current, fresh.to, { sessions: true })).verified).toBe(true);
  const migrated = await target();
  const db = openDatabase(migrated.to);
  await migrateToLatest(db);
  await db.close();
  expect((await copyDatabase(current, migrated.to, { sessions: true })).verified).toBe(true);
}, 60_000);

it('a backup into a folder that cannot be made is refused in a line, without hanging', async () => {
  // Under /proc a folder "does not exist" and cannot be made although its parent exists:
  // Node's recursive mkdir retried that forever at full CPU.
  await expect(backupDatabase(current, '/proc/no-such-folder/b.db')).rejects.toThrow(
    new CopyRefused(
      '/proc/no-such-folder cannot be made or written to (ENOENT): choose another --out.',
    ),
  );
});

it('a restore names a folder given for the backup, and a file given for the data folder', async () => {
  const backup = path.join(dir, 'current.backup.db');
  fs.copyFileSync((current as { file: string }).file, backup);
  const empty = await target();
  await expect(restoreDatabase(dir, empty.to)).rejects.toThrow(
    new CopyRefused(`${dir} is a folder: name the backup file in it.`),
  );
  if (testDialect() === 'postgres') return;
  const file = path.join(dir, 'a-file');
  fs.writeFileSync(file, 'not a folder');
  const restore = await runScript('src/server/cli/restore.ts', [backup, '--data-dir', file]);
  expect(restore.code).toBe(1);
  expect(restore.err).toBe(
    `Not restored: ${file} is a file, not a folder: name a new data folder.\n`,
  );
  expect(fs.readFileSync(file, 'utf8')).toBe('not a folder');
}, 60_000);

it('a restore into a database a server runs on is refused, and changes nothing', async () => {
  const backup = path.join(dir, 'current.backup-2.db');
  fs.copyFileSync((current as { file: string }).file, backup);
  const empty = await target();
  const dataDir = fs.mkdtempSync(path.join(dir, 'running-'));
  const server = await startTestServer(
    empty.to.kind === 'postgres' ? { DATABASE_URL: empty.url } : {},
    { dataDir },
  );
  try {
    const to = server.config.database;
    const tables = (await empty.tables()).sort();
    await expect(restoreDatabase(backup, to)).rejects.toThrow(
      new CopyRefused(
        to.kind === 'postgres'
          ? '1 Clients Manager server(s) are running on this database: stop every instance first.'
          : `${to.file} is open in another process (a Clients Manager server running on it?): stop it first.`,
      ),
    );
    expect(await countRows(server, 'user')).toBe(0);
    if (empty.to.kind === 'postgres') expect((await empty.tables()).sort()).toEqual(tables);
  } finally {
    await server.close();
  }
  // Stopped, the same restore goes ahead.
  const to =
    empty.to.kind === 'postgres'
      ? empty.to
      : { kind: 'sqlite' as const, file: dataDirDatabase(dataDir) };
  expect((await restoreDatabase(backup, to)).verified).toBe(true);
}, 60_000);

async function countRows(server: TestServer, table: 'user'): Promise<number> {
  const row = await server.app.parts.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
