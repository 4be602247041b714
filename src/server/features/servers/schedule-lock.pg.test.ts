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
            and a.application_name = 'clients-manager-schedule'
            and a.datname = current_database()`,
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

  it('asks on one connection, one query at a time, however many callers ask at once', async () => {
    await other.query('select pg_advisory_unlock_all()');
    // node-postgres queues a query sent while another is under way, a use it deprecates.
    const overlaps: string[] = [];
    const busy = new WeakMap<object, number>();
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: Parameters<pg.Client['query']>
    ) {
      const underway = busy.get(this) ?? 0;
      if (underway > 0) overlaps.push(String(args[0]));
      busy.set(this, underway + 1);
      const settled = () => busy.set(this, (busy.get(this) ?? 1) - 1);
      const result = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      void result.then(settled, settled);
      return result;
    } as typeof query);
    const lock = new ScheduleLock(database.url, pino({ level: 'silent' }));
    try {
      // Taken by several at once, then asked about by several at once while held.
      expect(await Promise.all([1, 2, 3, 4].map(() => lock.acquire()))).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(await Promise.all([1, 2, 3, 4].map(() => lock.acquire()))).toEqual([
        true,
        true,
        true,
        true,
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(overlaps).toEqual([]);
    const sessions = await other.query(
      `select pid from pg_stat_activity
      where application_name = 'clients-manager-schedule' and datname = current_database()`,
    );
    expect(sessions.rows).toHaveLength(1);
    await lock.release();
  });
});
