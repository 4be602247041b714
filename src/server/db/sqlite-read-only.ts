import SQLite from 'better-sqlite3';

/** An existing SQLite file, read-only, waiting for a writer's lock rather than failing at once. */
export function openSqliteReadOnly(file: string): SQLite.Database {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}
