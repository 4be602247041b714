import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '#server/config.ts';
import { CONNECT_TIMEOUT_MS, LISTEN_APPLICATION_NAME } from './database.ts';

/**
 * Why a command that must run with every server stopped (rotate-secret-key; restore and db:copy
 * into a database) should not run now, or null. A server left running through a key rotation
 * seals what it writes next under the old key; one running on a database being restored into
 * keeps answering from what it read before. Null too when the database cannot be looked at:
 * the command's own open says why.
 *
 * PostgreSQL: every instance keeps one LISTEN connection under its own application name (a
 * command has none), seen in `pg_stat_activity` by the same user. SQLite: a server keeps the
 * file open, and an open connection keeps any other from locking it exclusively.
 */
export async function serversRunningOn(target: DatabaseTarget): Promise<string | null> {
  if (target.kind === 'postgres') {
    const running = await listeningInstances(target.url);
    return running > 0
      ? `${running} Clients Manager server(s) are running on this database: stop every instance first.`
      : null;
  }
  if (target.file === ':memory:' || !fs.existsSync(target.file)) return null;
  return sqliteOpenElsewhere(target.file)
    ? `${target.file} is open in another process (a Clients Manager server running on it?): stop it first.`
    : null;
}

async function listeningInstances(url: string): Promise<number> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = $1`,
      [LISTEN_APPLICATION_NAME],
    );
    return rows[0]?.n ?? 0;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function sqliteOpenElsewhere(file: string): boolean {
  let sqlite: SQLite.Database | undefined;
  try {
    sqlite = new SQLite(file, { fileMustExist: true, timeout: 0 });
    // Set before the first read, exclusive mode takes the file's lock for itself, which any
    // other open connection (a WAL reader too) holds a share of.
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.exec('BEGIN EXCLUSIVE');
    sqlite.exec('COMMIT');
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === 'SQLITE_BUSY';
  } finally {
    sqlite?.close();
  }
}
