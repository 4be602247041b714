import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared: the app has a few dozen; the bound stops a runaway. */
const MAX_STATEMENTS = 500;

/**
 * The connection as Kysely's SQLite dialect uses it, preparing each SQL text once. Kysely
 * prepares every query it runs, and SQLite's prepare (parse and plan) cost more CPU than the
 * rest of a one-client read (docs/decisions/0004-plain-reads.md). A prepared statement holds
 * no data, only the compiled query: every run reads the database afresh, and SQLite prepares
 * again by itself after a schema change. Kysely runs one query at a time on this connection,
 * so a statement is never used by two queries at once.
 */
export function withPreparedStatements(connection: SqliteConnection): SqliteDatabase {
  const prepared = new Map<string, Statement>();
  return {
    close: () => void connection.close(),
    prepare(sql: string) {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = connection.prepare(sql);
        if (prepared.size >= MAX_STATEMENTS) prepared.clear();
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}
