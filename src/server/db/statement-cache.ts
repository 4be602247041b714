import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * better-sqlite3 handed to Kysely with its prepared statements kept. Kysely prepares every
 * query anew, and preparing (parsing and planning the SQL) took a tenth of the server's CPU
 * time under load; the same few dozen SQL texts come back all the time. A statement is only
 * ever run to completion at once (`all` / `run`, synchronous; nothing streams), so one
 * statement can serve every query of its text. `limit` bounds the texts kept (an `in (…)` list
 * makes a new text per length).
 */
export function withStatementCache(db: SQLite.Database, limit = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        if (statements.size >= limit) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
