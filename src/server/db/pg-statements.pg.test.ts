import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import { withNamedStatements } from './pg-statements.ts';

interface Note {
  id: number;
  body: string;
}

describe('named statements on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  let db: Kysely<{ note: Note }>;
  /** Another instance's connection: it migrates the table under this one's statements. */
  let other: pg.Client;

  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query(`create table note (id int primary key, body text not null)`);
    await other.query(`insert into note values (1, 'one'), (2, 'two')`);
    // One connection, so that every query below meets the statements the ones before prepared.
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    db = new Kysely({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  });
  afterAll(async () => {
    await db?.destroy();
    await other?.end();
    await database?.drop();
  });

  const byId = (id: number) => db.selectFrom('note').selectAll().where('id', '=', id);
  const byBody = (body: string, on: Kysely<{ note: Note }> = db) =>
    on.selectFrom('note').selectAll().where('body', '=', body);

  it('runs a parameterised query as a statement the connection prepared once', async () => {
    expect(await byId(1).execute()).toEqual([{ id: 1, body: 'one' }]);
    expect(await byId(2).execute()).toEqual([{ id: 2, body: 'two' }]);
    const prepared = await sql<{
      statement: string;
    }>`select statement from pg_prepared_statements`.execute(db);
    const text = byId(1).compile().sql;
    expect(prepared.rows.filter((row) => row.statement === text)).toHaveLength(1);
  });

  it('reads a column another instance added: at once, or on the next try inside a transaction', async () => {
    expect(await byId(1).execute()).toEqual([{ id: 1, body: 'one' }]);
    await other.query(`alter table note add column tag text`);
    // Outside a transaction the refused statement runs again, unnamed.
    expect(await byId(1).execute()).toEqual([{ id: 1, body: 'one', tag: null }]);

    expect(await byBody('two').execute()).toEqual([{ id: 2, body: 'two', tag: null }]);
    await other.query(`alter table note add column color text`);
    const inTransaction = () => db.transaction().execute((trx) => byBody('two', trx).execute());
    // The refusal has aborted the transaction: it fails, and the next one reads.
    await expect(inTransaction()).rejects.toThrow(/cached plan/);
    expect(await inTransaction()).toEqual([{ id: 2, body: 'two', tag: null, color: null }]);
  });
});
