import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { testDatabaseEnv } from '#server/testing/test-database.ts';
import { signUpVerified, startTestServer, type TestServer } from '#server/testing/test-server.ts';
import {
  startPasswordSshServer,
  type PasswordSshServer,
} from '#server/testing/ssh-password-server.ts';
import { CHECKS_AT_ONCE, type CheckSchedule } from './check-schedule.ts';

/**
 * The schedule against an ssh2 server in the test that takes its time over each password, so
 * that logins overlap and the most open at once shows how many checks ran side by side.
 */
const PASSWORD = 'correct horse battery';
const SERVERS = 12;
const ANSWER_AFTER_MS = 300;
const FAST = { timeoutMs: 5_000, retryDelayMs: 10 };

let sshServer: PasswordSshServer;
let dataDir: string;
let database: Awaited<ReturnType<typeof testDatabaseEnv>>;
/** Ids of the servers with a host, and of the one without. */
let withHost: string[];
let hostless: string;

beforeAll(async () => {
  sshServer = await startPasswordSshServer({
    username: 'deploy',
    password: PASSWORD,
    answerAfterMs: ANSWER_AFTER_MS,
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-schedule-'));
  database = await testDatabaseEnv();
  // The servers are made on an instance without a schedule, so that every round of the one
  // under test sees all of them.
  const setup = await startTestServer(database.env, { dataDir });
  try {
    const staff = await signUpVerified(setup, { name: 'Sam Schedule' });
    const made: string[] = [];
    for (let index = 0; index <= SERVERS; index += 1) {
      const server =
        index === SERVERS
          ? {}
          : { host: sshServer.host, port: sshServer.port, username: 'deploy', password: PASSWORD };
      const client = await staff.json<Client>('POST', '/api/clients', {
        name: `Scheduled ${index}`,
        server,
      });
      expect(client.status, JSON.stringify(client.body)).toBe(201);
      made.push(client.body.id);
    }
    const rows = await setup.app.parts.db.kysely
      .selectFrom('server')
      .select(['id', 'clientId'])
      .execute();
    const serverOf = (clientId: string) => rows.find((row) => row.clientId === clientId)!.id;
    withHost = made.slice(0, SERVERS).map(serverOf);
    hostless = serverOf(made[SERVERS]!);
  } finally {
    await setup.close();
  }
});
afterAll(async () => {
  sshServer?.close();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An instance on the servers' data whose schedule ticks every `intervalMs`. */
async function scheduled(
  intervalMs: number,
  checks: typeof FAST = FAST,
): Promise<{ app: TestServer; schedule: CheckSchedule }> {
  const app = await startTestServer(database.env, {
    dataDir,
    serverChecks: checks,
    checkIntervalMs: intervalMs,
  });
  const { schedule } = app.app.parts;
  if (!schedule) throw new Error('the schedule did not start');
  return { app, schedule };
}

/** How many scheduled checks each server has in the event log. */
async function scheduledChecks(app: TestServer): Promise<Map<string, number>> {
  const rows = await app.app.parts.db.kysely
    .selectFrom('event')
    .select(['serverId'])
    .where('kind', '=', 'server.checked')
    .where('actorName', '=', 'Scheduled check')
    .where('actorId', 'is', null)
    .execute();
  const counts = new Map<string, number>();
  for (const { serverId } of rows) counts.set(serverId!, (counts.get(serverId!) ?? 0) + 1);
  return counts;
}

describe('scheduled server checks', () => {
  it('check every server with a host each round, 8 at a time, one round at a time', async () => {
    await vi.waitFor(() => expect(sshServer.loginsUnderWay).toBe(0), { timeout: 5_000 });
    sshServer.maxLoginsUnderWay = 0;
    // A round takes two batches of logins of 300 ms each: many ticks come while it runs.
    const { app, schedule } = await scheduled(50);
    try {
      // The second round starts only after the first has ended.
      await vi.waitFor(() => expect(schedule.rounds).toBeGreaterThanOrEqual(2), {
        timeout: 15_000,
        interval: 20,
      });
      const counts = await scheduledChecks(app);
      // One event each: the first round's result; the second found the same and left none.
      for (const id of withHost) expect(counts.get(id)).toBe(1);
      expect(counts.has(hostless)).toBe(false);
      expect(schedule.ticks).toBeGreaterThan(schedule.rounds);
      // Exactly 8: the pool ran that many side by side, and no second round added to them.
      expect(sshServer.maxLoginsUnderWay).toBe(CHECKS_AT_ONCE);

      const server = await app.app.parts.db.kysely
        .selectFrom('server')
        .select(['checkStatus', 'hostKeyFingerprint'])
        .where('id', '=', withHost[0]!)
        .executeTakeFirstOrThrow();
      expect(server).toEqual({
        checkStatus: 'reachable',
        hostKeyFingerprint: sshServer.hostKey.fingerprint,
      });
    } finally {
      await app.close();
    }
  });

  it('stop on close: the checks in flight are stopped and nothing is left running', async () => {
    // Logins that would outlast the test: closing must stop them, not wait for them.
    sshServer.answerAfterMs = 60_000;
    await vi.waitFor(() => expect(sshServer.loginsUnderWay).toBe(0), { timeout: 5_000 });
    // The checks would give up only after 60 s: a close that waited for them shows plainly.
    const { app, schedule } = await scheduled(50, { ...FAST, timeoutMs: 60_000 });
    let closed = false;
    try {
      // The round's first checks, all waiting for their answer.
      await vi.waitFor(
        () => {
          expect(schedule.rounds).toBe(1);
          expect(sshServer.loginsUnderWay).toBeGreaterThanOrEqual(CHECKS_AT_ONCE);
        },
        { timeout: 10_000, interval: 10 },
      );
      expect(schedule.running).toBe(true);
      const started = Date.now();
      await app.close();
      closed = true;
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(schedule.running).toBe(false);
      await vi.waitFor(() => expect(sshServer.loginsUnderWay).toBe(0), {
        timeout: 5_000,
        interval: 10,
      });
    } finally {
      sshServer.answerAfterMs = ANSWER_AFTER_MS;
      if (!closed) await app.close();
    }
  });
});
