import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import {
  EVENT_CHANNEL,
  appendEvent,
  appendEvents,
  latestSeq,
  readLoggedEventsAfter,
} from './event-log.ts';

let db: Db;
let closeDb: () => Promise<void>;
let url: string;

beforeAll(async () => {
  ({ db, close: closeDb, url } = await openTestDatabase());
});
afterAll(async () => closeDb());

const event = (clientId: string) => ({
  kind: 'client.created' as const,
  clientId,
  actor: { id: 'u1', name: 'Tester' },
  fields: [],
  at: new Date().toISOString(),
});

/** The events after `after`, as presented. */
async function readEvents(after: number, limit: number) {
  return (await readLoggedEventsAfter(db.kysely, after, limit)).map(({ event }) => event);
}

/** Advisory locks some transaction is waiting for: a positive sign that an append blocks. */
async function advisoryWaiters(): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from pg_locks
    where locktype = 'advisory' and not granted
      and database = (select oid from pg_database where datname = current_database())`.execute(
    db.kysely,
  );
  return Number(rows[0]!.n);
}

/** A transaction that appends one event and stays open until `commit()` is called. */
function openAppend(clientId: string) {
  let commit!: () => void;
  const held = new Promise<void>((resolve) => (commit = resolve));
  let appended!: (seq: number) => void;
  const seq = new Promise<number>((resolve) => (appended = resolve));
  const done = db.kysely.transaction().execute(async (trx) => {
    const s = await appendEvent(trx, 'postgres', event(clientId));
    appended(s);
    await held;
    return s;
  });
  return { seq, commit, done };
}

/** A connection of its own that LISTENs on the event channel: the payloads it has heard. */
async function listen(): Promise<{ heard: string[]; stop: () => Promise<void> }> {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (n) => heard.push(n.payload ?? ''));
  await listener.query(`listen ${EVENT_CHANNEL}`);
  return { heard, stop: () => listener.end() };
}

describe('the event log on PostgreSQL', () => {
  it('makes a later append wait until the earlier one commits, so seq order is commit order', async () => {
    const head = await latestSeq(db.kysely);
    const first = openAppend('first');
    expect(await first.seq).toBe(head + 1);

    let secondDone = false;
    const second = db.kysely
      .transaction()
      .execute((trx) => appendEvent(trx, 'postgres', event('second')))
      .then((seq) => {
        secondDone = true;
        return seq;
      });
    await expect.poll(advisoryWaiters, { timeout: 5000 }).toBe(1);
    // Without the lock the second would have taken head + 2 and committed: a reader would see
    // head + 2 while head + 1 is still invisible, move its cursor past it and never read it.
    expect(secondDone).toBe(false);
    expect(await readEvents(head, 10)).toEqual([]);

    first.commit();
    expect(await first.done).toBe(head + 1);
    expect(await second).toBe(head + 2);
    const seen = await readEvents(head, 10);
    expect(seen.map((e) => [e.seq, e.clientId])).toEqual([
      [head + 1, 'first'],
      [head + 2, 'second'],
    ]);
  });

  it('releases the lock on rollback; the rolled-back seq is never seen and leaves no gap', async () => {
    const head = await latestSeq(db.kysely);
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await appendEvent(trx, 'postgres', event('rolled-back'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const seq = await db.kysely
      .transaction()
      .execute((trx) => appendEvent(trx, 'postgres', event('after')));
    // The number nobody saw goes to the next append: the log stays contiguous (a killed
    // process's transaction rolls back the same way; crash-safety.test.ts).
    expect(seq).toBe(head + 1);
    expect((await readEvents(head, 10)).map((e) => e.clientId)).toEqual(['after']);
  });

  it('notifies listeners at commit, not before, and never for a rollback', async () => {
    const { heard, stop } = await listen();
    try {
      const open = openAppend('notified');
      const seq = await open.seq;
      // A notification sent and committed after it arrives; the open append's has not.
      await sql`select pg_notify(${EVENT_CHANNEL}, 'marker 1')`.execute(db.kysely);
      await expect.poll(() => heard, { timeout: 15_000 }).toEqual(['marker 1']);
      open.commit();
      await open.done;
      await expect.poll(() => heard, { timeout: 15_000 }).toEqual(['marker 1', String(seq)]);

      await db.kysely
        .transaction()
        .execute(async (trx) => {
          await appendEvent(trx, 'postgres', event('never'));
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await sql`select pg_notify(${EVENT_CHANNEL}, 'marker 2')`.execute(db.kysely);
      await expect
        .poll(() => heard, { timeout: 15_000 })
        .toEqual(['marker 1', String(seq), 'marker 2']);
    } finally {
      await stop();
    }
  });

  it('numbers a long append on from the last event without gaps, and notifies once, its last', async () => {
    const { heard, stop } = await listen();
    try {
      const head = await latestSeq(db.kysely);
      // More than one insert statement's worth (500 rows each): the later ones number on from
      // the rows the earlier ones wrote in the same transaction.
      const ids = Array.from({ length: 1201 }, (_, i) => `bulk-${i}`);
      const seqs = await db.kysely
        .transaction()
        .execute((trx) => appendEvents(trx, 'postgres', ids.map(event)));
      expect(seqs).toEqual(ids.map((_, i) => head + 1 + i));
      const stored = [];
      for (let after = head; ;) {
        const page = await readEvents(after, 1000);
        if (page.length === 0) break;
        stored.push(...page);
        after = page.at(-1)!.seq;
      }
      expect(stored.map((e) => [e.seq, e.clientId])).toEqual(
        ids.map((id, i) => [head + 1 + i, id]),
      );
      await sql`select pg_notify(${EVENT_CHANNEL}, 'marker')`.execute(db.kysely);
      await expect.poll(() => heard, { timeout: 15_000 }).toEqual([String(head + 1201), 'marker']);
    } finally {
      await stop();
    }
  });
});
