import path from 'node:path';
import { ConfigError, dataDirDatabase, type Config } from './config.ts';
import { CONNECT_TIMEOUT_MS } from './db/database.ts';
import { NewerDatabaseError } from './db/migrate.ts';

/** PostgreSQL's SQLSTATEs a start meets when its URL names the wrong thing. */
const POSTGRES_REFUSALS: Record<string, (where: string) => string> = {
  '28P01': (where) => `PostgreSQL refused the user or password in ${where}`,
  '28000': (where) => `PostgreSQL refused the user in ${where}`,
  '3D000': (where) => `the database named in ${where} does not exist`,
};

/** Node's codes for a database server that cannot be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * pg's words, without a code, for a server that took the connection and said nothing within
 * its connectionTimeoutMillis (CONNECT_TIMEOUT_MS): the pool's, and a lone client's.
 */
const POSTGRES_TIMEOUTS = new Set([
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
]);

/** Node's codes for a folder or file that cannot be made, read or written, in words. */
const UNUSABLE_FILE: Record<string, (file: string) => string> = {
  ENOENT: (file) => `${file} does not exist and cannot be made`,
  ENOTDIR: (file) => `a file stands where a folder belongs in ${file}`,
  EISDIR: (file) => `${file} is a folder where a file belongs`,
  EACCES: (file) => `this user may not use ${file}`,
  EPERM: (file) => `this user may not use ${file}`,
  EROFS: (file) => `${file} is on a read-only file system`,
  ENOSPC: (file) => `the disk of ${file} is full`,
};

/** SQLite's codes for a database file that is not one it can use, in words. */
const UNUSABLE_SQLITE: Record<string, (file: string) => string> = {
  SQLITE_CANTOPEN: (file) => `${file} cannot be opened as a SQLite file`,
  SQLITE_NOTADB: (file) => `${file} is not a SQLite database`,
  SQLITE_CORRUPT: (file) => `${file} is damaged`,
};

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  hostname?: unknown;
  path?: unknown;
}

/**
 * Why PostgreSQL cannot be used, naming `where` its URL was given (DATABASE_URL, "its URL"),
 * with the reason's code; null for any other error. Never the URL itself: it may hold a
 * password.
 */
export function postgresFailure(error: unknown, where: string): string | null {
  const code = (error as SystemError | null)?.code;
  if (typeof code !== 'string') {
    return error instanceof Error && POSTGRES_TIMEOUTS.has(error.message)
      ? `the PostgreSQL server in ${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s (timeout)`
      : null;
  }
  if (code in POSTGRES_REFUSALS) return `${POSTGRES_REFUSALS[code]!(where)} (${code})`;
  if (UNREACHABLE.has(code)) return `the PostgreSQL server in ${where} cannot be reached (${code})`;
  return null;
}

/**
 * What an operator needs to read when the server (`prefix`: or a command) cannot start for a
 * reason of the machine it runs on, not of the code: one line naming the setting to look at,
 * as a bad variable gets (config.ts), instead of a stack trace. Null for anything else, which
 * is a bug and keeps its stack. Never the database URL itself: it may hold a password.
 */
export function startFailureMessage(
  error: unknown,
  config: Config,
  prefix = 'Cannot start',
): string | null {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof NewerDatabaseError) return `${prefix}: ${error.message}`;
  const { code, syscall, hostname, path: file } = (error ?? {}) as SystemError;
  if (typeof code !== 'string') {
    const timeout =
      config.database.kind === 'postgres' ? postgresFailure(error, 'DATABASE_URL') : null;
    return timeout && `${prefix}: ${timeout}.`;
  }
  // Before PostgreSQL's: a HOST that cannot be looked up fails with one of its codes too.
  if (syscall === 'getaddrinfo' && hostname === config.host) {
    return `${prefix}: HOST ${config.host} is a name this machine cannot look up (${code}).`;
  }
  if (syscall === 'listen') {
    if (code === 'EADDRINUSE') {
      return `${prefix}: ${config.host}:${config.port} is in use by another program (set PORT or HOST).`;
    }
    if (code === 'EADDRNOTAVAIL') {
      return `${prefix}: HOST ${config.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all of them (${code}).`;
    }
    if (code === 'EACCES') {
      return `${prefix}: port ${config.port} is open only to privileged programs: set PORT to 1024 or above (${code}).`;
    }
    return null;
  }
  if (config.database.kind === 'postgres') {
    const failure = postgresFailure(error, 'DATABASE_URL');
    if (failure) return `${prefix}: ${failure}.`;
  } else if (code in UNUSABLE_SQLITE) {
    // DATABASE_URL unset: the file is DATA_DIR's, and that is the setting to look at.
    const { file: database } = config.database;
    const setting = database === dataDirDatabase(config.dataDir) ? 'DATA_DIR' : 'DATABASE_URL';
    return `${prefix}: the SQLite database in ${setting} cannot be used: ${UNUSABLE_SQLITE[code]!(database)} (${code}).`;
  }
  // Only a file of the data folder or of the database, or a folder on the way to them: one
  // elsewhere (a file the code ships, say) that is missing is a bug, not a setting.
  if (!(code in UNUSABLE_FILE) || typeof file !== 'string') return null;
  const what = `${UNUSABLE_FILE[code]!(file)} (${code})`;
  if (related(file, config.dataDir)) {
    return `${prefix}: DATA_DIR ${config.dataDir} cannot be used as this server's folder: ${what}.`;
  }
  if (config.database.kind === 'sqlite' && related(file, path.dirname(config.database.file))) {
    return `${prefix}: the SQLite database in DATABASE_URL cannot be used: ${what}.`;
  }
  return null;
}

/** Whether `file` is `folder`, in it, or a folder on the way to it. */
function related(file: string, folder: string): boolean {
  const inside = (inner: string, outer: string) => {
    const relative = path.relative(outer, inner);
    return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  };
  return inside(file, folder) || inside(folder, file);
}
