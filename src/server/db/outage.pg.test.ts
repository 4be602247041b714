import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientList } from '#shared/clients.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '#server/http/database-unavailable.ts';
import { TestPostgres, createDatabase } from '#server/testing/embedded-postgres.ts';
import { openEventStream, type SseReader } from '#server/testing/sse-reader.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';

// Its own PostgreSQL server, stopped and started again here: the shared one of the run must not
// be disturbed.
let postgres: TestPostgres;
let server: TestServer;

beforeAll(async () => {
  postgres = await TestPostgres.start();
  const database = await createDatabase(postgres.url());
  server = await startTestServer({ DATABASE_URL: database.url });
});
afterAll(async () => {
  await server?.close();
  await postgres?.destroy();
});

/** A request's answer and how long it took. */
async function timed(
  session: Session,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: { error?: string }; ms: number }> {
  const started = Date.now();
  const response = await session.json<{ error?: string }>(method, url, body);
  return { ...response, ms: Date.now() - started };
}

const ids = (stream: SseReader) =>
  stream.messages.filter((m) => m.id !== undefined).map((m) => Number(m.id));

describe('when PostgreSQL goes away and comes back', () => {
  it('answers 503 meanwhile, resumes the streams, and loses no acknowledged write', async () => {
    const staff = await signUpVerified(server, { name: 'Outage Staff' });
    const before = (await staff.json<Client>('POST', '/api/clients', { name: 'Before' })).body;
    const stream = await openEventStream(server.url, staff.cookieHeader);
    const ready = await stream.until('stream.ready');
    const head = (JSON.parse(ready.at(-1)!.data) as { seq: number }).seq;

    // Writers keep going while the server stops: each write is either acknowledged (201) and
    // kept, or refused with 503; none hangs and none gets a 500.
    let stopped = false;
    const answers: { status: number; id: string | undefined }[] = [];
    const writer = async (w: number) => {
      for (let i = 0; !stopped; i++) {
        const r = await staff.json<Client>('POST', '/api/clients', { name: `Racing ${w}.${i}` });
        answers.push({ status: r.status, id: r.status === 201 ? r.body.id : undefined });
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await expect.poll(() => answers.length, { timeout: 15_000 }).toBeGreaterThan(20);
    await postgres.stop();
    stopped = true;
    await Promise.all(writers);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
    const acknowledged = answers.flatMap((a) => (a.id ? [a.id] : []));
    expect(acknowledged.length).toBeGreaterThan(20);

    const anon = new Session(server);
    const health = await timed(anon, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const ready503 = await timed(anon, 'GET', '/readyz');
    expect(ready503).toMatchObject({ status: 503, body: { error: DATABASE_UNAVAILABLE_MESSAGE } });
    for (const [method, url, body] of [
      ['GET', '/api/clients', undefined],
      ['POST', '/api/clients', { name: 'During' }],
      ['GET', `/api/clients/${before.id}`, undefined],
      ['GET', '/api/me', undefined],
      ['GET', '/api/events', undefined],
    ] as const) {
      const answer = await timed(staff, method, url, body);
      expect(answer.status, `${method} ${url}`).toBe(503);
      expect(answer.body.error).toBe(DATABASE_UNAVAILABLE_MESSAGE);
      expect(answer.ms, `${method} ${url}`).toBeLessThan(6000);
    }
    const signIn = await timed(anon, 'POST', '/api/auth/sign-in/email', {
      email: 'someone@example.test',
      password: 'whatever password',
    });
    expect(signIn.status).toBe(503);
    expect(signIn.ms).toBeLessThan(6000);
    // The open stream stays open; it has nothing to say until the log can be read again.
    expect(stream.ended).toBe(false);

    await postgres.start();
    await expect
      .poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 15_000 })
      .toBe(200);

    const list = await staff.json<ClientList>('GET', '/api/clients');
    expect(list.status).toBe(200);
    const kept = new Set(list.body.clients.map((c) => c.id));
    for (const id of [before.id, ...acknowledged]) expect(kept.has(id)).toBe(true);
    // The write refused with 503 while the database was away was not kept either.
    expect(list.body.clients.some((c) => c.name === 'During')).toBe(false);

    const after = await staff.json<Client>('POST', '/api/clients', { name: 'After' });
    expect(after.status).toBe(201);

    // The stream that stayed open gets everything committed since it opened, in order, once; a
    // browser reconnecting with its Last-Event-ID gets the same. The numbers stay consecutive:
    // a write cut off before its commit takes its number back with it (event-log.ts).
    const committed = (
      await server.app.parts.db.kysely
        .selectFrom('event')
        .select('seq')
        .where('seq', '>', head)
        .orderBy('seq')
        .execute()
    ).map((row) => Number(row.seq));
    expect(committed.length).toBeGreaterThanOrEqual(acknowledged.length + 1);
    expect(committed).toEqual(committed.map((_, i) => head + 1 + i));
    await expect.poll(() => ids(stream).at(-1), { timeout: 5000 }).toBe(committed.at(-1));
    expect(ids(stream)).toEqual(committed);
    const resumed = await openEventStream(server.url, staff.cookieHeader, String(head));
    await resumed.until('stream.ready');
    expect(ids(resumed)).toEqual(committed);
    stream.close();
    resumed.close();
  });
});
