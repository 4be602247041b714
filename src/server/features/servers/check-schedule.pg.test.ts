import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import { signUpVerified, startTestServer, type TestServer } from '#server/testing/test-server.ts';
import {
  startPasswordSshServer,
  type PasswordSshServer,
} from '#server/testing/ssh-password-server.ts';
import { SecretBox } from '#server/secrets.ts';
import { CHECKS_AT_ONCE, CheckSchedule } from './check-schedule.ts';
import { CHECK_SCHEDULE_LOCK } from './schedule-lock.ts';
import { ServerChecks } from './server-checks.ts';

// Two instances on one PostgreSQL database, as behind a load balancer, both with a schedule:
// one of them runs it, and the other takes over when that one stops.
const PASSWORD = 'correct horse battery';
const INTERVAL_MS = 100;

let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
let sshServer: PasswordSshServer;
let a: TestServer;
let b: TestServer;
const closed = new Set<TestServer>();

beforeAll(async () => {
  sshServer = await startPasswordSshServer({ username: 'deploy', password: PASSWORD });
  database = await createTestPostgresDatabase();
  const env = { DATABASE_URL: database.url, SECRET_KEY: 'check-schedule-test-key-'.repeat(3) };
  const options = { serverChecks: { timeoutMs: 5_000, retryDelayMs: 10 } };
  a = await startTestServer(env, { ...options, checkIntervalMs: INTERVAL_MS });
  b = await startTestServer(env, { ...options, checkIntervalMs: INTERVAL_MS });
  const staff = await signUpVerified(a, { name: 'Lena Lock' });
  const client = await staff.json<Client>('POST', '/api/clients', {
    name: 'Locked Schedule',
    server: { host: sshServer.host, port: sshServer.port, username: 'deploy', password: PASSWORD },
  });
  expect(client.status).toBe(201);
});
afterAll(async () => {
  for (const instance of [a, b]) if (instance && !closed.has(instance)) await instance.close();
  sshServer?.close();
  await database?.drop();
});

const scheduleOf = (instance: TestServer): CheckSchedule => {
  const { schedule } = instance.app.parts;
  if (!schedule) throw new Error('the schedule did not start');
  return schedule;
};

/**
 * When a server was last checked, by any instance (ms since the epoch; 0 before any check). Not
 * the events: a scheduled check that finds nothing new leaves none.
 */
async function scheduledChecks(instance: TestServer): Promise<number> {
  const row = await instance.app.parts.db.kysely
    .selectFrom('server')
    .select((eb) => eb.fn.max('checkedAt').as('last'))
    .executeTakeFirst();
  return row?.last ? new Date(row.last).getTime() : 0;
}

/** The sessions holding the schedule's lock in this database, by application name. */
async function lockHolders(instance: TestServer): Promise<string[]> {
  // A bigint advisory key is shown split in two: its high half as classid, its low as objid.
  const high = Math.floor(CHECK_SCHEDULE_LOCK / 2 ** 32);
  const low = CHECK_SCHEDULE_LOCK % 2 ** 32;
  const { rows } = await sql<{ name: string }>`
    select a.application_name as name
    from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.granted and l.objsubid = 1
      and l.classid = ${high} and l.objid = ${low}
      and l.database = (select oid from pg_database where datname = current_database())`.execute(
    instance.app.parts.db.kysely,
  );
  return rows.map((row) => row.name);
}

const leaderAndOther = () => {
  const leader = scheduleOf(a).leading ? a : b;
  return { leader, other: leader === a ? b : a };
};

describe('the schedule with several instances on PostgreSQL', () => {
  it('runs on exactly one instance, and moves to another when that one stops', async () => {
    // Whichever took the lock first runs its rounds, which check the server.
    await vi.waitFor(
      async () => {
        expect([a, b].filter((instance) => scheduleOf(instance).rounds >= 1)).toHaveLength(1);
        expect(await scheduledChecks(a)).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 20 },
    );
    const first = leaderAndOther();
    expect(scheduleOf(first.leader).rounds).toBeGreaterThanOrEqual(1);
    // The other keeps ticking and runs no round while the lock is held.
    const ticks = scheduleOf(first.other).ticks;
    await vi.waitFor(
      () => expect(scheduleOf(first.other).ticks).toBeGreaterThanOrEqual(ticks + 3),
      { timeout: 15_000, interval: 20 },
    );
    expect(scheduleOf(first.other).rounds).toBe(0);
    expect(scheduleOf(first.other).leading).toBe(false);
    // PostgreSQL's own view: one session holds the schedule's lock.
    expect(await lockHolders(a)).toEqual(['clients-manager-schedule']);

    // The lock's connection drops (the database ends that session): the lock is free, and at
    // a next tick an instance takes it again, the same one or the other.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'clients-manager-schedule' and datname = current_database()`.execute(
      a.app.parts.db.kysely,
    );
    const afterDrop = await scheduledChecks(a);
    await vi.waitFor(
      async () => {
        expect(await lockHolders(a)).toEqual(['clients-manager-schedule']);
        expect([a, b].filter((instance) => scheduleOf(instance).leading)).toHaveLength(1);
        expect(await scheduledChecks(a)).toBeGreaterThan(afterDrop);
      },
      { timeout: 15_000, interval: 20 },
    );

    // Closing waits for the leader's round, so every check after it is the other's.
    const { leader, other } = leaderAndOther();
    const rounds = scheduleOf(other).rounds;
    await leader.close();
    closed.add(leader);
    const beforeTakeOver = await scheduledChecks(other);
    await vi.waitFor(
      async () => {
        expect(scheduleOf(other).leading).toBe(true);
        expect(await scheduledChecks(other)).toBeGreaterThan(beforeTakeOver);
      },
      { timeout: 15_000, interval: 20 },
    );
    expect(scheduleOf(other).rounds).toBeGreaterThan(rounds);
    expect(await lockHolders(other)).toEqual(['clients-manager-schedule']);
  });
});

/**
 * Holds every login at `held` until `letThrough` is called, and imports CHECKS_AT_ONCE + 4
 * clients (`count`) whose servers are there, as `person`: a round then stalls with
 * CHECKS_AT_ONCE checks under way and the rest of its servers queued.
 */
async function serversHeldMidLogin(
  instance: TestServer,
  held: PasswordSshServer,
  person: string,
): Promise<{ count: number; letThrough: () => void }> {
  let release!: () => void;
  held.answersHeldUntil = new Promise<void>((resolve) => (release = resolve));
  const staff = await signUpVerified(instance, { name: person });
  const count = CHECKS_AT_ONCE + 4;
  const imported = await staff.json('POST', '/api/clients/import', {
    clients: Array.from({ length: count }, (_, n) => ({
      name: `${person} ${n}`,
      server: { host: held.host, port: held.port, username: 'deploy', password: PASSWORD },
    })),
  });
  expect(imported.status).toBe(200);
  const letThrough = () => {
    release();
    held.answersHeldUntil = undefined;
  };
  return { count, letThrough };
}

/** Until a round has CHECKS_AT_ONCE logins waiting at `held`. */
async function untilStalled(held: PasswordSshServer): Promise<void> {
  await vi.waitFor(() => expect(held.loginsUnderWay).toBe(CHECKS_AT_ONCE), {
    timeout: 15_000,
    interval: 20,
  });
}

describe('a round whose instance loses the lock', () => {
  let held: PasswordSshServer;
  let otherDatabase: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  let c: TestServer;
  let d: TestServer;
  const cLines: string[] = [];
  const dLines: string[] = [];
  const logOf = (instance: TestServer) => (instance === c ? cLines : dLines);
  /** How many times an instance has taken the schedule's lock, by its log. */
  const takings = (instance: TestServer) =>
    logOf(instance).filter((line) =>
      line.includes('this instance runs the scheduled server checks'),
    ).length;

  beforeAll(async () => {
    held = await startPasswordSshServer({ username: 'deploy', password: PASSWORD });
    otherDatabase = await createTestPostgresDatabase();
    const env = {
      DATABASE_URL: otherDatabase.url,
      SECRET_KEY: 'check-schedule-lost-key-'.repeat(3),
    };
    const options = { serverChecks: { timeoutMs: 30_000, retryDelayMs: 10 } };
    const logged = (lines: string[]) => ({
      ...options,
      checkIntervalMs: INTERVAL_MS,
      logStream: { write: (line: string) => lines.push(line) },
    });
    c = await startTestServer({ ...env, LOG_LEVEL: 'info' }, logged(cLines));
    d = await startTestServer({ ...env, LOG_LEVEL: 'info' }, logged(dLines));
  });
  afterAll(async () => {
    if (held) held.answersHeldUntil = undefined;
    await Promise.all([c?.close(), d?.close()]);
    held?.close();
    await otherDatabase?.drop();
  });

  it('starts no further check once the lock is gone, and leaves them to the next holder', async () => {
    const { count, letThrough } = await serversHeldMidLogin(c, held, 'Lars Lost');
    await untilStalled(held);
    const leader = scheduleOf(c).leading ? c : d;
    const next = leader === c ? d : c;
    const startedByLeader = scheduleOf(leader).checksStarted;
    expect(startedByLeader).toBe(CHECKS_AT_ONCE);

    // The database ends the lock's session: the leader knows at once (its connection ends),
    // and the other takes the lock and starts a round of its own on the same servers.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'clients-manager-schedule' and datname = current_database()`.execute(
      c.app.parts.db.kysely,
    );
    await vi.waitFor(
      () => {
        expect(scheduleOf(leader).leading).toBe(false);
        expect(scheduleOf(next).checksStarted).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 20 },
    );

    expect(takings(next)).toBeGreaterThan(0);
    const leaderTakings = takings(leader);
    // Let every login through: the old leader ends the checks it had under way and starts no
    // other, while the new holder checks every server.
    letThrough();
    await vi.waitFor(
      () => {
        expect(scheduleOf(leader).running).toBe(false);
        expect(scheduleOf(next).checksStarted).toBeGreaterThanOrEqual(count);
      },
      { timeout: 30_000, interval: 20 },
    );
    // On a busy machine the new holder can lose the lock in turn (its connection's answer later
    // than the query timeout), and the old leader may then rightly take it again and check the
    // rest. Without taking it again, it starts nothing.
    if (takings(leader) === leaderTakings) {
      expect(scheduleOf(leader).checksStarted).toBe(startedByLeader);
    } else {
      expect(logOf(next).join('')).toContain('lost the scheduled checks lock');
    }
  }, 90_000);
});

/**
 * A relay in front of PostgreSQL that can go silent: both of its sockets stay open and nothing
 * passes either way, as when a route or a NAT drops a connection without a word.
 */
interface Relay {
  port: number;
  silent: boolean;
  close(): void;
}

async function startRelay(host: string, port: number): Promise<Relay> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    const upstream = net.connect(port, host);
    sockets.push(socket, upstream);
    for (const end of [socket, upstream]) end.on('error', () => undefined);
    socket.on('data', (chunk) => void (relay.silent || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (relay.silent || socket.write(chunk)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const relay: Relay = {
    port: (server.address() as AddressInfo).port,
    silent: false,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
  return relay;
}

describe('a round whose lock connection goes silent', () => {
  const SECRET_KEY = 'check-schedule-silent-key-'.repeat(3);
  let held: PasswordSshServer;
  let silentDatabase: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
  let relay: Relay;
  let e: TestServer;
  let schedule: CheckSchedule | undefined;

  beforeAll(async () => {
    held = await startPasswordSshServer({ username: 'deploy', password: PASSWORD });
    silentDatabase = await createTestPostgresDatabase();
    const url = new URL(silentDatabase.url);
    relay = await startRelay(url.hostname, Number(url.port));
    // No schedule of its own: the one under test runs here, its lock through the relay.
    e = await startTestServer({ DATABASE_URL: silentDatabase.url, SECRET_KEY });
  });
  afterAll(async () => {
    if (held) held.answersHeldUntil = undefined;
    relay?.close();
    await schedule?.close();
    await e?.close();
    held?.close();
    await silentDatabase?.drop();
  });

  it('starts no further check once a check finds the lock unanswered', async () => {
    const { letThrough } = await serversHeldMidLogin(e, held, 'Sid Silent');

    const { db } = e.app.parts;
    const lockUrl = new URL(silentDatabase.url);
    lockUrl.host = `127.0.0.1:${relay.port}`;
    const checks = new ServerChecks(db, new SecretBox(SECRET_KEY), () => undefined, {
      timeoutMs: 30_000,
      retryDelayMs: 10,
    });
    schedule = new CheckSchedule({
      db,
      checks,
      intervalMs: INTERVAL_MS,
      log: pino({ level: 'silent' }),
      lockUrl: lockUrl.toString(),
    });
    schedule.start();
    await untilStalled(held);
    expect(schedule.checksStarted).toBe(CHECKS_AT_ONCE);

    // The lock's connection goes silent: no error, no end, so the instance still counts itself
    // the holder; only asking it tells. (PostgreSQL still holds the lock for the silent
    // session, so no other instance could take it meanwhile.)
    relay.silent = true;
    letThrough();
    await vi.waitFor(() => expect(schedule!.running).toBe(false), {
      timeout: 30_000,
      interval: 20,
    });
    expect(schedule.leading).toBe(false);
    expect(schedule.checksStarted).toBe(CHECKS_AT_ONCE);
  }, 90_000);
});
