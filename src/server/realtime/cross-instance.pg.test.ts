import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientEvent } from '#shared/events.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { openEventStream, type SseReader } from '#server/testing/sse-reader.ts';
import { latestSeq } from './event-log.ts';

// Two instances of the app on one PostgreSQL database, as behind a load balancer: the same
// SECRET_KEY, nothing else shared but the database.
let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  database = await createTestPostgresDatabase();
  const env = { DATABASE_URL: database.url, SECRET_KEY: 'cross-instance-test-key-'.repeat(3) };
  [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await database.drop();
});

/** The same signed-in user, talking to another instance. */
function on(server: TestServer, session: Session): Session {
  const moved = new Session(server);
  for (const [name, value] of session.cookies) moved.cookies.set(name, value);
  return moved;
}

const ids = (stream: SseReader) =>
  stream.messages.filter((m) => m.id !== undefined).map((m) => Number(m.id));

async function readyHead(stream: SseReader): Promise<number> {
  const ready = await stream.until('stream.ready');
  return (JSON.parse(ready.at(-1)!.data) as { seq: number }).seq;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

describe('several instances on one PostgreSQL database', () => {
  it('share sessions: signed in on A, signed in on B; signed out on B, out on A', async () => {
    const onA = await signUpVerified(a, { name: 'Roaming' });
    const onB = on(b, onA);
    const me = await onB.json<{ email: string }>('GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe((await onA.json<{ email: string }>('GET', '/api/me')).body.email);

    expect((await onB.request('POST', '/api/auth/sign-out', {})).status).toBe(200);
    expect((await onA.json('GET', '/api/me')).status).toBe(401);
  });

  it('bring each change made through A to a live stream of B, in order', async (context) => {
    const writer = await signUpVerified(a, { name: 'Writer on A' });
    const stream = await openEventStream(b.url, on(b, writer).cookieHeader);
    let seq = await readyHead(stream);

    // Per write: from sending it to A until B's stream has it, and from A's answer (the change
    // is made) until B's stream has it (often before A's answer is read: 0).
    const sentToB: number[] = [];
    const answered: number[] = [];
    const afterAnswer: number[] = [];
    // A test that timed out stops writing: its writes would be the next test's surprise events.
    for (let i = 0; i < 150 && !context.signal.aborted; i++) {
      const started = performance.now();
      const response = await writer.json<Client>('POST', '/api/clients', { name: `Across ${i}` });
      const answeredAt = performance.now();
      expect(response.status).toBe(201);
      // A bound for a stalled test, not a speed: how fast is the bench's to measure (and
      // pg-wakeup.pg.test.ts shows that the NOTIFY, not the hub's poll, wakes the hub).
      const message = await stream.next(15_000);
      const event = JSON.parse(message.data) as ClientEvent;
      expect(event.clientId).toBe(response.body.id);
      expect(event.seq).toBe(seq + 1);
      seq = event.seq;
      sentToB.push(message.receivedAt - started);
      answered.push(answeredAt - started);
      afterAnswer.push(Math.max(0, message.receivedAt - answeredAt));
    }
    stream.close();

    const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const e2e = sorted(sentToB);
    const late = sorted(afterAnswer);
    await context.annotate(
      `cross-instance latency, ${e2e.length} writes (POST to A sent → event read on B's stream): ` +
        `median ${ms(quantile(e2e, 0.5))}, p99 ${ms(quantile(e2e, 0.99))}, max ${ms(e2e.at(-1)!)}; ` +
        `A's own answer: median ${ms(quantile(sorted(answered), 0.5))}; ` +
        `B behind A's answer: median ${ms(quantile(late, 0.5))}, max ${ms(late.at(-1)!)}`,
      'measurement',
    );
  });

  it('give every stream every event exactly once, in order, while writers on both race', async () => {
    const writers = await Promise.all([
      signUpVerified(a, { name: 'A1' }),
      signUpVerified(a, { name: 'A2' }),
      signUpVerified(a, { name: 'A3' }),
      signUpVerified(b, { name: 'B1' }),
      signUpVerified(b, { name: 'B2' }),
      signUpVerified(b, { name: 'B3' }),
    ]);
    const watcher = writers[0]!;
    const streams = await Promise.all([
      openEventStream(a.url, watcher.cookieHeader),
      openEventStream(a.url, watcher.cookieHeader),
      openEventStream(b.url, on(b, watcher).cookieHeader),
      openEventStream(b.url, on(b, watcher).cookieHeader),
    ]);
    const heads = await Promise.all(streams.map(readyHead));
    const head = Math.min(...heads);
    expect(heads.every((h) => h === head)).toBe(true);

    // A browser that loses its connection to A and reconnects through the load balancer to B.
    const roaming = await openEventStream(a.url, watcher.cookieHeader);
    await readyHead(roaming);

    const write = async (session: Session, n: number) => {
      for (let i = 0; i < n; i++) {
        const created = await session.json<Client>('POST', '/api/clients', { name: `Race ${i}` });
        expect(created.status).toBe(201);
        const updated = await session.json('PUT', `/api/clients/${created.body.id}`, {
          name: `Race ${i} renamed`,
          version: 1,
        });
        expect(updated.status).toBe(200);
      }
    };
    const racing = writers.map((session) => write(session, 12));

    await expect.poll(() => ids(roaming).length, { timeout: 10_000 }).toBeGreaterThan(20);
    roaming.close();
    const roamingIds = ids(roaming);
    const resumed = await openEventStream(
      b.url,
      on(b, watcher).cookieHeader,
      String(roamingIds.at(-1)),
    );

    await Promise.all(racing);
    const last = await latestSeq(a.app.parts.db.kysely);
    expect(last - head).toBe(6 * 12 * 2);
    const expected = Array.from({ length: last - head }, (_, i) => head + 1 + i);

    for (const stream of [...streams, resumed]) {
      await expect.poll(() => ids(stream).at(-1), { timeout: 5000 }).toBe(last);
    }
    for (const stream of streams) expect(ids(stream)).toEqual(expected);
    expect([...roamingIds, ...ids(resumed)]).toEqual(expected);
    for (const stream of [...streams, resumed]) stream.close();
  });
});
