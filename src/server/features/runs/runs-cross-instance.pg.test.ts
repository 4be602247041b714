import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, Run, RunLogLine } from '#shared/apps.ts';
import type { Client } from '#shared/clients.ts';
import type { Server } from '#shared/servers.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { shellGate } from '#server/testing/shell-gate.ts';
import { SseReader } from '#server/testing/sse-reader.ts';
import { sshKeygen, startSshd, type Sshd } from '#server/testing/sshd.ts';

// Two instances on one PostgreSQL database, as behind a load balancer. A run belongs to the
// instance that started it (it holds the SSH connection); the other one streams its log from the
// table and passes a cancel on through the run's row.
let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
let a: TestServer;
let b: TestServer;
let sshd: Sshd;
let dir: string;
let privateKey: string;

const HEARTBEAT_MS = 300;

beforeAll(async () => {
  database = await createTestPostgresDatabase();
  const env = { DATABASE_URL: database.url, SECRET_KEY: 'runs-cross-instance-key-'.repeat(3) };
  const runs = { heartbeatMs: HEARTBEAT_MS, cancelGraceMs: 500, connectTimeoutMs: 5_000 };
  [a, b] = await Promise.all([startTestServer(env, { runs }), startTestServer(env, { runs })]);
  dir = await mkdtemp(path.join(os.tmpdir(), 'cm-runs-pg-'));
  await sshKeygen(path.join(dir, 'id'));
  privateKey = await readFile(path.join(dir, 'id'), 'utf8');
  sshd = await startSshd([(await readFile(path.join(dir, 'id.pub'), 'utf8')).trim()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await database.drop();
  await sshd.close();
  await rm(dir, { recursive: true, force: true });
});

function on(server: TestServer, session: Session): Session {
  const moved = new Session(server);
  for (const [name, value] of session.cookies) moved.cookies.set(name, value);
  return moved;
}

async function openLog(server: TestServer, as: Session, runId: string): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}/api/runs/${runId}/log`, {
    headers: { cookie: as.cookieHeader, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  return new SseReader(response, abort);
}

describe('runs on several instances of one PostgreSQL database', () => {
  it("streams A's run live on B, and a cancel asked on B stops it on A", async (context) => {
    const go = shellGate(dir, 'go');
    const onA = await signUpVerified(a, { name: 'Cross Runs' });
    const onB = on(b, onA);
    await onA.json('PUT', '/api/me/access-token', { accessToken: 'cross-token-0123456' });
    const client = await onA.json<Client>('POST', '/api/clients', { name: 'Cross Runs' });
    const credential = await onA.json<{ id: string }>('POST', '/api/credentials', {
      name: 'Cross key',
      kind: 'ssh-key',
      privateKey,
    });
    const server = await onA.json<Server>('POST', '/api/servers', {
      clientId: client.body.id,
      label: 'sshd',
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      credentialId: credential.body.id,
    });
    await onA.json('POST', `/api/servers/${server.body.id}/check`);
    const app = await onA.json<App>('POST', '/api/apps', {
      clientId: client.body.id,
      serverId: server.body.id,
      name: 'web',
      // Tick 1, then the rest once B is known to be reading (the test makes the file), 0.5 s
      // apart: B polls another instance's run once a second (run-routes.ts), so ticks 2 to 5,
      // printed over 1.5 s while B reads, cannot all come in one poll.
      command: `echo tick 1; ${go.wait}; for i in 2 3 4 5; do sleep 0.5; echo tick $i; done; sleep 30; echo never`,
    });

    const run = await onA.json<Run>('POST', `/api/apps/${app.body.id}/runs`);
    expect(run.status).toBe(201);
    const stream = await openLog(b, onB, run.body.id);
    const ticks: number[] = [];
    for (;;) {
      const message = await stream.next(10_000);
      const line = JSON.parse(message.data) as RunLogLine;
      if (line.text === 'tick 1\n') await go.open();
      else if (line.text.startsWith('tick ')) ticks.push(message.receivedAt);
      if (line.text === 'tick 5\n') break;
    }
    // Live: ticks 2 to 5 came to B as they were printed, over more than one poll.
    expect(ticks.at(-1)! - ticks[0]!).toBeGreaterThan(300);

    const asked = performance.now();
    const cancel = await onB.json<Run>('POST', `/api/runs/${run.body.id}/cancel`);
    expect(cancel.status).toBe(200);
    // A's next heartbeat reads the request; the grace (0.5 s here) closes the connection. The
    // wait is bounded at half the command's 30 s sleep: a cancel that never reached A fails.
    const rest = await stream.until('run.end', 15_000);
    const took = performance.now() - asked;
    const ended = JSON.parse(rest.at(-1)!.data) as Run;
    expect(ended).toMatchObject({ state: 'cancelled' });
    await context.annotate(
      `[runs] cross-instance: cancel asked on B ended A's run in ${took.toFixed(0)} ms (heartbeat ${HEARTBEAT_MS} ms)`,
      'measurement',
    );
    const texts = rest
      .filter((m) => m.event === 'run.log')
      .map((m) => (JSON.parse(m.data) as RunLogLine).text);
    expect(texts).not.toContain('never\n');
    expect(texts.at(-1)).toMatch(/^Cancelled by .* after/);
  }, 60_000);
});
