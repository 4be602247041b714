/** What an API call answers (503) while the database cannot be reached. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable. Try again in a moment.';

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean "the server is gone or not taking work", not "this query is wrong":
 * class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up or shutting down).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

/** Messages node-postgres and its pool give without a code. */
const MESSAGES = [
  /^Connection terminated/i, // "… unexpectedly", "… due to connection timeout"
  /timeout exceeded when trying to connect/i, // pool: no connection within connectionTimeoutMillis
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
];

/**
 * Decides whether an error means the database is unreachable (so the request may succeed in a
 * moment: 503) rather than a bug (500). Looks through `cause` chains and AggregateErrors
 * (Node's connect to a name with several addresses), since libraries wrap the driver's error.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code) && isUnavailableSqlState(e.code)) return true;
  }
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) {
    return true;
  }
  if (
    Array.isArray(e.errors) &&
    e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(e.cause, depth + 1);
}
