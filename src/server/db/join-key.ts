import { sql, type RawBuilder } from 'kysely';

/**
 * The text key a query that joins tables finds its row by (`.where('client.id', '=',
 * joinKey(id))`), as `cast(? as text)` rather than a bare parameter. SQLite, built as
 * better-sqlite3 builds it (with STAT4), marks a join compared with a bare parameter to be
 * planned again whenever a value is bound: every run then parses and plans the query anew, and
 * better-sqlite3 compiles a new row builder for it, five times the cost of the lookup itself.
 * The cast makes the value an expression the plan does not depend on; the plan (the same index
 * lookups) is made once per prepared statement. PostgreSQL reads it as the plain parameter.
 */
export function joinKey(value: string): RawBuilder<string> {
  return sql<string>`cast(${value} as text)`;
}
