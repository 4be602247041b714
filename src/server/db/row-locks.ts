import type { Dialect } from './database.ts';

/**
 * A read of a row a write is about to refer to (a server's credential, an issue's client),
 * made to keep that row: on PostgreSQL the row can then be neither deleted nor given another
 * key until the transaction ends, and a delete under way is waited for, so the read says
 * whether the row is still there instead of a foreign key failing at the insert. SQLite runs
 * one write transaction at a time.
 */
export function keepingRows<Query extends { forKeyShare(): Query }>(
  query: Query,
  dialect: Dialect,
): Query {
  return dialect === 'postgres' ? query.forKeyShare() : query;
}

/**
 * A read of the row a write decides on (the one it changes, or its parent), locked until the
 * transaction ends on PostgreSQL: a write to it under way is waited for, and what it then
 * reads is what was committed. SQLite runs one write transaction at a time.
 */
export function lockingRows<Query extends { forUpdate(): Query }>(
  query: Query,
  dialect: Dialect,
): Query {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

/** A foreign key refused the row: what it referred to was deleted (SQLite's and PostgreSQL's codes). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
