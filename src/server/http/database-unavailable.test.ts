import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { closedPort } from '#server/testing/free-port.ts';
import { HttpError } from './http-error.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    [
      'PostgreSQL shutting down (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['PostgreSQL starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (08006)', withCode('connection failure', '08006')],
    ['a cut connection', new Error('Connection terminated unexpectedly')],
    ['the pool giving up', new Error('timeout exceeded when trying to connect')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    [
      'several addresses refused (AggregateError)',
      Object.assign(new AggregateError([withCode('x', 'ECONNREFUSED')], ''), {
        code: 'ECONNREFUSED',
      }),
    ],
    [
      "a library's wrapper around the driver's error",
      new Error('Failed to get session', { cause: withCode('connect', 'ECONNREFUSED') }),
    ],
  ])('says yes for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('syntax error at or near "selec"', '42601')],
    ['a unique violation', withCode('duplicate key value', '23505')],
    ['a SQLite constraint', withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['an HTTP error', new HttpError(400, 'Invalid body')],
    ['nothing', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('says no for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops on a cause that points back at itself', () => {
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('recognises what node-postgres really throws when nothing listens', async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://u:p@127.0.0.1:${await closedPort()}/db`,
      connectionTimeoutMillis: 2000,
    });
    const error = await pool.query('select 1').catch((e: unknown) => e);
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
