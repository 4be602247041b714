import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import { startTestServer } from '#server/testing/test-server.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest, NewerDatabaseError } from './migrate.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase(): Promise<string> {
  const database = await createTestPostgresDatabase();
  cleanups.push(database.drop);
  return database.url;
}

describe('migrations on PostgreSQL', () => {
  it('run once when several instances migrate one fresh database at the same moment', async () => {
    const url = await freshDatabase();
    const dbs = Array.from({ length: 4 }, () =>
      openDatabase({ kind: 'postgres', url, poolSize: 2 }),
    );
    cleanups.push(async () => void (await Promise.all(dbs.map((db) => db.close()))));

    const applied = await Promise.all(dbs.map((db) => migrateToLatest(db)));

    // Kysely's migrator holds a PostgreSQL advisory lock while it reads what has run and runs
    // the rest, all in one transaction: the first takes every migration, the others none.
    const ran = applied.filter((names) => names.length > 0);
    expect(ran).toHaveLength(1);
    expect(ran[0]![0]).toBe('0001-initial');
    expect(applied.filter((names) => names.length === 0)).toHaveLength(3);
    const recorded = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(dbs[0]!.kysely);
    expect(recorded.rows.map((r) => r.name)).toEqual(ran[0]);
  });

  it('refuse a database a newer version migrated, naming its migration', async () => {
    const db = openDatabase({ kind: 'postgres', url: await freshDatabase(), poolSize: 2 });
    cleanups.push(() => db.close());
    await migrateToLatest(db);
    await sql`insert into kysely_migration (name, timestamp) values ('0099-future', ${new Date().toISOString()})`.execute(
      db.kysely,
    );
    await expect(migrateToLatest(db)).rejects.toThrow(new NewerDatabaseError('0099-future'));
  });

  it('let two app instances start together on a fresh database, both serving', async () => {
    const url = await freshDatabase();
    const servers = await Promise.all([
      startTestServer({ DATABASE_URL: url }),
      startTestServer({ DATABASE_URL: url }),
    ]);
    cleanups.push(async () => void (await Promise.all(servers.map((s) => s.close()))));
    for (const server of servers) {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    }
  });
});
