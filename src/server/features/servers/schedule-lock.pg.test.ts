import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHeldRelay, type HeldRelay } from '#server/testing/held-relay.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import { CHECK_SCHEDULE_LOCK, ScheduleLock } from './schedule-lock.ts';

let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
let relay: HeldRelay;
let other: pg.Client;

beforeAll(async () => {
  database = await createTestPostgresDatabase();
  const { hostname, port } = new URL(database.url);
  relay = await startHeldRelay({ host: hostname, port: Number(port) });
  other = new pg.Client({ connectionString: database.url });
  await other.connect();
});
afterAll(async () => {
  await other?.end();
  await relay?.close();
  await database?.drop();
});

const tryLock = async (client: pg.Client) =>
  (
    await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      CHECK_SCHEDULE_LOCK,
    ])
  ).rows[0]?.locked;

describe('the schedule lock', () => {
  it('is not held when its connection ends right after the database gave it', async () => {
    const logged: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logged.push(line) });
    const lock = new ScheduleLock(relay.url(database.url), log);
    // Connected through the relay while another session holds the lock.
    await other.query('select pg_advisory_lock($1)', [CHECK_SCHEDULE_LOCK]);
    expect(await lock.acquire()).toBe(false);
    await other.query('select pg_advisory_unlock($1)', [CHECK_SCHEDULE_LOCK]);

    // The database gives the lock, and ends that session before its answer reaches the
    // instance: the answer arrives with the end of the connection, and the lock is free.
    relay.hold();
    const taking = lock.acquire();
    const { rows } = await vi.waitFor(
      async () => {
        const granted = await other.query<{ pid: number }>(
          `select l.pid from pg_locks l join pg_stat_activity a on a.pid = l.pid
          where l.locktype = 'advisory' and l.granted
            and a.application_name = 'clients-manager-schedule'`,
        );
        expect(granted.rows).toHaveLength(1);
        return granted;
      },
      { timeout: 10_000, interval: 20 },
    );
    await other.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
    await relay.serverClosed();
    relay.deliver();

    expect(await taking).toBe(false);
    expect(lock.held).toBe(false);
    // Another instance takes the free lock; this one must not think it holds it too.
    expect(await tryLock(other)).toBe(true);
    expect(await lock.acquire()).toBe(false);
    expect(lock.held).toBe(false);
    expect(logged.join('')).not.toContain('this instance runs the scheduled server checks');
    await lock.release();
  });
});
