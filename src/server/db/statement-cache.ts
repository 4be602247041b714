import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements that change the database or end a transaction (COMMIT counts as read-only). */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;

/**
 * better-sqlite3 handed to Kysely with its prepared statements kept. Kysely prepares every
 * query anew, and preparing (parsing and planning the SQL) took a tenth of the server's CPU
 * time under load; the same few dozen SQL texts come back all the time. A statement is only
 * ever run to completion at once (`all` / `run`, synchronous; nothing streams), so one
 * statement can serve every query of its text. `limit` bounds the texts kept (an `in (…)` list
 * makes a new text per length).
 *
 * `beforeWrite` runs before each statement that writes or controls a transaction (so before
 * every commit): the quick reader ends its snapshot there (quick-reader.ts).
 */
export function withStatementCache(
  db: SQLite.Database,
  options: { limit?: number; beforeWrite?: () => void } = {},
): SqliteDatabase {
  const { limit = 500, beforeWrite } = options;
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = db.prepare(sql);
        statement =
          beforeWrite && (!prepared.readonly || TRANSACTION_CONTROL.test(sql))
            ? announced(prepared, beforeWrite)
            : prepared;
        if (statements.size >= limit) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** The statement as Kysely uses it, calling `before` ahead of each run. */
function announced(statement: SQLite.Statement, before: () => void): SqliteStatement {
  return {
    reader: statement.reader,
    all(parameters) {
      before();
      return statement.all(parameters);
    },
    run(parameters) {
      before();
      return statement.run(parameters);
    },
    iterate(parameters) {
      before();
      return statement.iterate(parameters);
    },
  };
}
