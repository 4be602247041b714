import { ConfigError, type Config } from './config.ts';

/** PostgreSQL's SQLSTATEs a start meets when DATABASE_URL names the wrong thing. */
const POSTGRES_REFUSALS: Record<string, string> = {
  '28P01': 'PostgreSQL refused the user or password in DATABASE_URL',
  '28000': 'PostgreSQL refused the user in DATABASE_URL',
  '3D000': 'the database named in DATABASE_URL does not exist',
};

/** Node's codes for a database server that cannot be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/** Node's codes for a folder that cannot be made or written. */
const UNUSABLE_FOLDER = new Set(['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC']);

/**
 * What an operator needs to read when the server cannot start for a reason of the machine it
 * runs on, not of the code: one line naming the setting to look at, as a bad variable gets
 * (config.ts), instead of a stack trace. Null for anything else, which is a bug and keeps its
 * stack. Never the database URL itself: it may hold a password.
 */
export function startFailureMessage(error: unknown, config: Config): string | null {
  if (error instanceof ConfigError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (config.database.kind === 'postgres') {
    if (code in POSTGRES_REFUSALS) return `Cannot start: ${POSTGRES_REFUSALS[code]} (${code}).`;
    if (UNREACHABLE.has(code)) {
      return `Cannot start: the PostgreSQL server in DATABASE_URL cannot be reached (${code}).`;
    }
  }
  if (UNUSABLE_FOLDER.has(code)) {
    return `Cannot start: DATA_DIR ${config.dataDir} cannot be used as this server's folder (${code}).`;
  }
  if (code === 'EADDRINUSE') {
    return `Cannot start: ${config.host}:${config.port} is in use by another program (set PORT or HOST).`;
  }
  return null;
}
