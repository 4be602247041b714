import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DatabaseTarget } from '#server/config.ts';
import type { Database } from './schema.ts';
import { openSqliteReadOnly } from './sqlite-read-only.ts';
import { withPreparedStatements } from './sqlite-statements.ts';
import { withNamedStatements } from './pg-statements.ts';
import { makePrivateFolder } from '#server/private-files.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Where a lost PostgreSQL connection is reported (the app's pino logger). */
export interface DbLog {
  warn(details: object, message: string): void;
}

/**
 * A database that is down must fail a request within seconds, never hold it: this bounds the
 * wait for a new connection (and so for a pool slot while the server is unreachable).
 */
export const CONNECT_TIMEOUT_MS = 5000;

/** The application name of each server's one LISTEN connection on PostgreSQL (pg-wakeup.ts). */
export const LISTEN_APPLICATION_NAME = 'clients-manager-listen';

/**
 * Opens the database that DATABASE_URL names: an embedded SQLite file or PostgreSQL.
 * `readOnly` (SQLite): open an existing file without writing to it (the source of a copy).
 */
export function openDatabase(
  target: DatabaseTarget,
  options: { log?: DbLog; readOnly?: boolean } = {},
): Db {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      // Notices a server that vanished without closing the connection (a dead host, a cut
      // network) instead of waiting on it for the kernel's default two hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'clients-manager',
    });
    // When the server goes away, every open connection emits 'error'. Unhandled, that event
    // would crash the process. The pool listens only while a connection is idle (and then drops
    // it); one that is checked out, e.g. in the middle of a transaction, needs a listener of its
    // own: its query fails on its own, and the pool drops it when it comes back unusable.
    pool.on('error', (error) =>
      options.log?.warn({ err: error }, 'a PostgreSQL connection was lost'),
    );
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: withNamedStatements(pool) }),
    });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  if (options.readOnly) {
    const sqlite = openSqliteReadOnly(target.file);
    const kysely = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }),
    });
    return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
  }
  if (target.file !== ':memory:') makePrivateFolder(path.dirname(target.file));
  const sqlite = new SQLite(target.file);
  // WAL lets readers go on while one writer commits; the busy timeout makes a second
  // process (a CLI command, a backup) wait for the lock instead of failing at once, from the
  // first statement on: switching a new file to WAL takes a lock too.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  // Every commit is flushed to disk before it is answered: not even a power cut loses an
  // acknowledged write (NORMAL would only survive a killed process). better-sqlite3's default,
  // stated so that it stays.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withPreparedStatements(sqlite) }),
  });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

/** Whether the database answers `select 1` within `timeoutMs` (for /readyz: never hangs). */
export async function databaseReachable(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const check = sql`select 1`.execute(db.kysely).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
