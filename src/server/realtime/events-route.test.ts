import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientEvent } from '#shared/events.ts';
import { signUpVerified, startTestServer, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { STREAMS_PER_PERSON, TOO_MANY_STREAMS_MESSAGE } from './events-route.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const LIVE_STAFF = uniqueEmail('live-staff');
const t = serveThisFile({ staff: { member: { name: 'Live Staff', email: LIVE_STAFF } } });

const create = async (name: string, extra: object = {}) =>
  (await t.staff.member.json<Client>('POST', '/api/clients', { name, ...extra })).body;

describe('GET /api/events', () => {
  it('sends every write as an event whose id is its sequence number', async () => {
    const stream = await openEventStream(t.server.url, t.staff.member.cookieHeader);
    const ready = await stream.next();
    expect(ready.event).toBe('stream.ready');
    const head = (JSON.parse(ready.data) as { seq: number }).seq;

    const client = await create('Live one', { server: { password: 'never-in-events' } });
    await t.staff.member.json('PUT', `/api/clients/${client.id}`, {
      name: 'Live one, renamed',
      version: 1,
    });
    await t.staff.member.json('POST', `/api/clients/${client.id}/duplicate`);
    await t.staff.member.request('DELETE', `/api/clients/${client.id}`);

    const events = [
      await stream.next(),
      await stream.next(),
      await stream.next(),
      await stream.next(),
    ];
    expect(events.map((e) => e.event)).toEqual([
      'client.created',
      'client.updated',
      'client.duplicated',
      'client.deleted',
    ]);
    expect(events.map((e) => Number(e.id))).toEqual([head + 1, head + 2, head + 3, head + 4]);
    const updated = JSON.parse(events[1]!.data) as ClientEvent;
    expect(updated).toMatchObject({
      seq: head + 2,
      clientId: client.id,
      actor: { name: LIVE_STAFF },
      fields: ['name'],
    });
    for (const e of events) expect(e.data).not.toContain('never-in-events');
    stream.close();
  });

  it('replays everything missed, in order, when a client resumes with Last-Event-ID', async () => {
    const first = await openEventStream(t.server.url, t.staff.member.cookieHeader);
    const ready = await first.next();
    const lastSeen = (JSON.parse(ready.data) as { seq: number }).seq;
    first.close();

    const missed = [await create('Missed 1'), await create('Missed 2'), await create('Missed 3')];

    const resumed = await openEventStream(
      t.server.url,
      t.staff.member.cookieHeader,
      String(lastSeen),
    );
    const replay = await resumed.until('stream.ready');
    const replayed = replay
      .filter((m) => m.event === 'client.created')
      .map((m) => JSON.parse(m.data) as ClientEvent);
    expect(replayed.map((e) => e.clientId)).toEqual(missed.map((c) => c.id));
    expect(replayed.map((e) => e.seq)).toEqual([lastSeen + 1, lastSeen + 2, lastSeen + 3]);
    resumed.close();
  });

  it('replays the whole log, in order, to a client resuming from before the first event', async () => {
    // Paging a far-behind client through the table, where the recent buffer does not reach
    // back, is the hub's own test (event-hub.test.ts): this server's buffer holds its whole log.
    const written = [await create('From the start 1'), await create('From the start 2')];
    const resumed = await openEventStream(t.server.url, t.staff.member.cookieHeader, '0');
    const replayed = (await resumed.until('stream.ready')).filter((m) => m.id !== undefined);
    const seqs = replayed.map((m) => Number(m.id));
    expect(seqs[0]).toBe(1);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const ids = replayed.map((m) => (JSON.parse(m.data) as ClientEvent).clientId);
    expect(ids.slice(-2)).toEqual(written.map((c) => c.id));
    resumed.close();
  });

  it('tells a client whose resume point is unknown to reload', async () => {
    const stream = await openEventStream(t.server.url, t.staff.member.cookieHeader, '999999');
    expect((await stream.next()).event).toBe('stream.reset');
    expect((await stream.next()).event).toBe('stream.ready');
    stream.close();
  });

  it('refuses a malformed Last-Event-ID', async () => {
    const response = await fetch(`${t.server.url}/api/events`, {
      headers: { cookie: t.staff.member.cookieHeader, 'last-event-id': 'abc' },
    });
    expect(response.status).toBe(400);
  });

  it('keeps one person to STREAMS_PER_PERSON open streams, and frees a place when one closes', async () => {
    const own = await startTestServer();
    try {
      const person = await signUpVerified(own);
      const colleague = await signUpVerified(own);
      const streams = [];
      for (let i = 0; i < STREAMS_PER_PERSON; i += 1) {
        const stream = await openEventStream(own.url, person.cookieHeader);
        expect((await stream.next()).event).toBe('stream.ready');
        streams.push(stream);
      }
      const refused = await person.request('GET', '/api/events');
      if (refused.status !== 429) await refused.body?.cancel();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toBe(TOO_MANY_STREAMS_MESSAGE);
      // Someone else's streams are their own.
      const theirs = await openEventStream(own.url, colleague.cookieHeader);
      expect((await theirs.next()).event).toBe('stream.ready');
      theirs.close();

      // A closed stream's place is free once the server has seen it close.
      streams.pop()!.close();
      let again = await person.request('GET', '/api/events?lastEventId=0');
      for (let tries = 0; again.status === 429 && tries < 100; tries += 1) {
        await new Promise((resolve) => setImmediate(resolve));
        again = await person.request('GET', '/api/events?lastEventId=0');
      }
      expect(again.status).toBe(200);
      await again.body?.cancel();
      for (const stream of streams) stream.close();
    } finally {
      await own.close();
    }
  });

  it('ends live streams cleanly when the server shuts down', async () => {
    const own = await startTestServer();
    const session = await signUpVerified(own);
    const stream = await openEventStream(own.url, session.cookieHeader);
    await stream.next();
    const started = Date.now();
    await own.close();
    // Well under the 10 s after which a shutdown ends what holds it up.
    expect(Date.now() - started).toBeLessThan(8000);
    await expect(stream.next(2000)).rejects.toThrow('stream ended');
  });
});
