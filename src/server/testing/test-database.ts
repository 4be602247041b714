import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '#server/db/database.ts';
import { migrateTo, migrateToLatest } from '#server/db/migrate.ts';
import { createDatabase } from './embedded-postgres.ts';

export type TestDialect = 'sqlite' | 'postgres';

/**
 * The database the API suites run on. The Vitest project `postgres` sets
 * CM_TEST_DATABASE=postgres; everything else (the `sqlite` project, Playwright) uses SQLite.
 */
export function testDialect(): TestDialect {
  return process.env.CM_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
}

/**
 * The shared PostgreSQL server of this test run: the one the global setup started, or the one
 * TEST_DATABASE_URL names. Never optional: without it the suites fail, they are not skipped.
 */
export function testPostgresUrl(): string {
  const url = process.env.CM_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'No test PostgreSQL server: run the postgres Vitest project (its global setup starts one), or set TEST_DATABASE_URL',
    );
  }
  return url;
}

/** A fresh, empty PostgreSQL database for one test file or server. */
export function createTestPostgresDatabase(): ReturnType<typeof createDatabase> {
  return createDatabase(testPostgresUrl());
}

/**
 * Settings for a process started by a test (the real entry point, a CLI command): a fresh
 * PostgreSQL database when that is under test, nothing for SQLite (the file in DATA_DIR).
 */
export async function testDatabaseEnv(): Promise<{
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  if (testDialect() === 'sqlite') return { env: {}, drop: async () => undefined };
  const database = await createTestPostgresDatabase();
  return { env: { DATABASE_URL: database.url }, drop: database.drop };
}

/**
 * A migrated database of the dialect under test, for tests below the HTTP layer. `url` is its
 * DATABASE_URL; `migrateTo`: migrated that far only. `postgresServer`: create it on that PostgreSQL server instead of the shared one
 * (a file whose assertions another file's commits would disturb).
 */
export async function openTestDatabase(
  options: { postgresServer?: string; migrateTo?: string } = {},
): Promise<{ db: Db; url: string; close(): Promise<void> }> {
  const migrate = (db: Db) =>
    options.migrateTo === undefined ? migrateToLatest(db) : migrateTo(db, options.migrateTo);
  if (testDialect() === 'postgres') {
    const database = await createDatabase(options.postgresServer ?? testPostgresUrl());
    const db = openDatabase({ kind: 'postgres', url: database.url, poolSize: 10 });
    await migrate(db);
    return {
      db,
      url: database.url,
      async close() {
        await db.close();
        await database.drop();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-db-'));
  const file = path.join(dir, 'test.db');
  const db = openDatabase({ kind: 'sqlite', file });
  await migrate(db);
  return {
    db,
    url: `sqlite:${file}`,
    async close() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
