import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { appendEvent } from './event-log.ts';
import { EventHub, type StreamSink } from './event-hub.ts';

let db: Db;
let closeDb: () => Promise<void>;

beforeEach(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
});
afterEach(async () => closeDb());

async function write(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await db.kysely.transaction().execute((trx) =>
      appendEvent(trx, db.dialect, {
        kind: 'client.created',
        clientId: `c${i}`,
        actor: { id: 'u1', name: 'Tester' },
        fields: [],
        at: new Date().toISOString(),
      }),
    );
  }
}

function collector(): StreamSink & { ids(): number[]; text: string; ended: boolean } {
  const sink = {
    userId: 'u1',
    sessionId: 's1',
    access: { userId: 'u1', role: 'admin' as const, tags: null },
    text: '',
    write(chunk: string) {
      sink.text += chunk;
    },
    pending: () => 0,
    open: () => true,
    ended: false,
    end() {
      sink.ended = true;
    },
    ids: () => [...sink.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])),
  };
  return sink;
}

const silent = pino({ level: 'silent' });

/** A hub over 12 logged events that keeps 2 and reads 5 at a time: a replay from 0 pages. */
async function pagingHub(): Promise<EventHub> {
  await write(12);
  const hub = new EventHub(db.kysely, silent, { ringSize: 2, pageSize: 5 });
  await hub.start(60_000);
  return hub;
}

describe('EventHub', () => {
  it('pages a far-behind subscriber through the table, then hands over to the ring without gaps', async () => {
    await write(30);
    const hub = new EventHub(db.kysely, silent, { ringSize: 5 });
    await hub.start(60_000);
    await write(12);
    await hub.wake(); // the ring now holds only the last 5 of 42
    const sink = collector();
    await hub.subscribe(sink, 3);
    await write(2);
    await hub.wake();
    expect(sink.ids()).toEqual(Array.from({ length: 41 }, (_, i) => i + 4));
    hub.close();
  });

  it('folds wake-ups that arrive during a read into one more read', async () => {
    const hub = new EventHub(db.kysely, silent);
    await hub.start(60_000);
    const sink = collector();
    await hub.subscribe(sink, null);
    await write(3);
    await Promise.all([hub.wake(), hub.wake(), hub.wake()]);
    expect(sink.ids()).toEqual([1, 2, 3]);
    hub.close();
  });

  it('cuts off a subscriber that cannot keep up', async () => {
    const hub = new EventHub(db.kysely, silent);
    await hub.start(60_000);
    let ended = false;
    await hub.subscribe(
      {
        userId: 'u',
        sessionId: 's',
        access: { userId: 'u', role: 'admin', tags: null },
        write() {},
        pending: () => 64 * 1024 * 1024,
        open: () => true,
        end: () => (ended = true),
      },
      null,
    );
    expect(hub.size).toBe(1);
    await write(1);
    await hub.wake();
    expect(ended).toBe(true);
    expect(hub.size).toBe(0);
    hub.close();
  });

  it('ends a stream still being replayed when its session is ended, and shows it to the sweep', async () => {
    const hub = await pagingHub();
    const replaying = collector();
    const seenBySweep: string[][] = [];
    const send = replaying.write;
    replaying.write = (chunk) => {
      send(chunk);
      // The person signs out (or is disabled) while the first page of their replay is sent.
      if (replaying.ids().length === 1) {
        seenBySweep.push(
          hub.sessionIds(),
          hub.sinks().map((sink) => sink.sessionId),
        );
        hub.disconnectSessions(new Set(['s1']));
      }
    };
    await hub.subscribe(replaying, 0);
    expect(seenBySweep).toEqual([['s1'], ['s1']]);
    expect(replaying.ended).toBe(true);
    expect(replaying.ids()).toEqual([1, 2, 3, 4, 5]);
    expect(replaying.text).not.toContain('stream.ready');
    expect(hub.size).toBe(0);
    expect(hub.sessionIds()).toEqual([]);
    hub.close();
  });

  it('pages the log no further to a far-behind reader that does not read, or has gone', async () => {
    const hub = await pagingHub();
    // A socket that takes each page and sends none of it, as a reader that stopped reading
    // leaves it: past the limit after the first page.
    const stalled = collector();
    stalled.pending = () => (stalled.text.length > 0 ? 64 * 1024 * 1024 : 0);
    await hub.subscribe(stalled, 0);
    expect(stalled.ended).toBe(true);
    expect(stalled.ids()).toEqual([1, 2, 3, 4, 5]);
    expect(stalled.text).not.toContain('stream.ready');
    expect(hub.size).toBe(0);

    const gone = collector();
    gone.open = () => false;
    await hub.subscribe(gone, 0);
    expect(gone.ended).toBe(true);
    expect(gone.ids()).toEqual([]);
    expect(hub.size).toBe(0);
    hub.close();
  });
});
