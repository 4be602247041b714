import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { runScript } from '#server/testing/run-script.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest, migrationNames } from './migrate.ts';
import { COPIED_TABLES } from './copy-database-tables.ts';

/**
 * Commands started together on a new SQLite installation (the server and `npm run user`, a
 * cron job's backup…) each migrate the same fresh file; they must take turns, as PostgreSQL's
 * advisory lock makes them (migrate.pg.test.ts).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-migrate-sqlite-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('three commands started together on a fresh data folder all migrate it and succeed', async () => {
  for (let round = 0; round < 3; round += 1) {
    const dataDir = path.join(dir, `data-${round}`);
    const runs = await Promise.all(
      Array.from({ length: 3 }, () =>
        runScript('src/server/cli/user.ts', ['list'], { env: { DATA_DIR: dataDir } }),
      ),
    );
    for (const run of runs) expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
    const db = new SQLite(path.join(dataDir, 'clients-manager.db'), { readonly: true });
    try {
      const applied = db.prepare('select name from kysely_migration order by name').all();
      expect(applied).toEqual(migrationNames().map((name) => ({ name })));
      const tables = db
        .prepare("select name from sqlite_master where type = 'table'")
        .all()
        .map((row) => (row as { name: string }).name);
      for (const table of COPIED_TABLES) expect(tables).toContain(table.name);
    } finally {
      db.close();
    }
  }
}, 120_000);

it('a migration that fails leaves the file as it was, the ones before it included', async () => {
  const file = path.join(dir, 'failing.db');
  const raw = new SQLite(file);
  // Migration 0007 creates this table: it fails there, after six migrations ran.
  raw.exec('create table "server" ("id" text)');
  raw.close();
  const db = openDatabase({ kind: 'sqlite', file });
  try {
    await expect(migrateToLatest(db)).rejects.toThrow(/table "server" already exists/);
  } finally {
    await db.close();
  }
  const after = new SQLite(file, { readonly: true });
  try {
    const tables = after.prepare("select name from sqlite_master where type = 'table'").all();
    expect(tables).toEqual([{ name: 'server' }]);
  } finally {
    after.close();
  }
});
