import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestPostgres } from '../testing/embedded-postgres.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Db } from './database.ts';
import { KeyedRead, readTurn } from './keyed-read.ts';
import { appendEvent } from '../realtime/event-log.ts';
import { ClientListCache } from '../features/clients/client-list-cache.ts';

const READ_V = new KeyedRead<{ v: number }>({
  key: '"kr"."id"',
  columns: '"kr"."v"',
  from: '"kr"',
});

let db: Db;
let close: () => Promise<void>;
/** Queries sent to PostgreSQL through the pool while `work` runs. */
async function queriesDuring(work: () => Promise<unknown>): Promise<number> {
  let queries = 0;
  const count = () => (queries += 1);
  db.pool!.on('acquire', count);
  try {
    await work();
    return queries;
  } finally {
    db.pool!.off('acquire', count);
  }
}

// A server of this file's own: pg_current_snapshot() moves with every commit anywhere in the
// cluster, and on the shared test server other files commit all the time, which would turn the
// exact query counts below into a race. Autovacuum is off for the same reason (its analyze
// commits too).
beforeAll(async () => {
  const server = await TestPostgres.start({ settings: { autovacuum: 'off' } });
  const opened = await openTestDatabase({ postgresServer: server.url() });
  db = opened.db;
  close = async () => {
    await opened.close();
    await server.destroy();
  };
  await sql`create table "kr" ("id" text primary key, "v" integer not null)`.execute(db.kysely);
  await sql`insert into "kr" values ('a', 1), ('b', 2)`.execute(db.kysely);
});
afterAll(() => close());

it('sends one query for the keyed reads asked in one turn, and one per turn after that', async () => {
  const read = async (id: string) => (await READ_V.run(db, id))?.v;
  let values: (number | undefined)[] = [];
  const together = await queriesDuring(async () => {
    values = await Promise.all(Array.from({ length: 20 }, (_, i) => read(i % 2 ? 'a' : 'b')));
  });
  expect(together).toBe(1);
  expect(values).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 1 : 2)));
  const apart = await queriesDuring(async () => {
    await read('a');
    await read('b');
  });
  expect(apart).toBe(2);
});

it('lets a batch take in the keys of the turns after it while they keep coming, for a few turns', async () => {
  const read = async (id: string) => (await READ_V.run(db, id))?.v;
  /** Reads `id` in each of `turns` turns of the event loop, one after the other. */
  const overTurns = (turns: number) =>
    new Promise<(number | undefined)[]>((resolve) => {
      const reads: Promise<number | undefined>[] = [];
      const next = () => {
        reads.push(read(reads.length % 2 ? 'a' : 'b'));
        if (reads.length < turns) setImmediate(next);
        else resolve(Promise.all(reads));
      };
      next();
    });
  let values: (number | undefined)[] = [];
  // Asked over three turns in a row: one query answers them all.
  expect(await queriesDuring(async () => (values = await overTurns(3)))).toBe(1);
  expect(values).toEqual([2, 1, 2]);
  // A steady stream does not hold a batch back for good: twelve turns in a row take more than
  // one query, and fewer than one a turn.
  const steady = await queriesDuring(() => overTurns(12));
  expect(steady).toBeGreaterThan(1);
  expect(steady).toBeLessThan(6);
});

it('answers a key read before after one snapshot check, and reads it again after any commit', async () => {
  const first = await READ_V.run(db, 'a');
  let again: unknown;
  // Nothing committed since: the snapshot check alone, and the very same row.
  expect(await queriesDuring(async () => (again = await READ_V.run(db, 'a')))).toBe(1);
  expect(again).toBe(first);

  // A commit that touches another row: PostgreSQL's snapshot moved, so the check fails and the
  // row is read again (the check and the read), the same values in a new row.
  await sql`update "kr" set "v" = 20 where "id" = 'b'`.execute(db.kysely);
  expect(await queriesDuring(async () => (again = await READ_V.run(db, 'a')))).toBe(2);
  expect(again).not.toBe(first);
  expect(again).toMatchObject({ v: 1 });

  // Its own change, made through another connection of the pool, is read at once.
  await sql`update "kr" set "v" = 10 where "id" = 'a'`.execute(db.kysely);
  expect(await READ_V.run(db, 'a')).toMatchObject({ v: 10 });
  await sql`update "kr" set "v" = 1 where "id" = 'a'`.execute(db.kysely);
  await sql`update "kr" set "v" = 2 where "id" = 'b'`.execute(db.kysely);
});

it("answers a request's later read at once from a check made since it arrived, and only then", async () => {
  await READ_V.run(db, 'a');
  await READ_V.run(db, 'b');
  // A request arrives, and its first read goes to PostgreSQL (the check, sent after it arrived).
  const arrived = readTurn(db);
  await READ_V.run(db, 'b');
  // Its next read: answered from the kept row, no round trip, not even a promise.
  let later: unknown;
  expect(await queriesDuring(async () => (later = READ_V.run(db, 'a', undefined, arrived)))).toBe(
    0,
  );
  expect(later).toMatchObject({ v: 1 });

  // A request that arrived after that check started gets no such answer: its reads wait for a
  // check of their own.
  const afterCheck = readTurn(db);
  expect(READ_V.run(db, 'a', undefined, afterCheck)).toBeInstanceOf(Promise);
  await READ_V.run(db, 'a');

  // After a commit, the check that follows sees a new snapshot: nothing is vouched for until it
  // has read again, and what it read is what the request gets.
  const beforeCommit = readTurn(db);
  await sql`update "kr" set "v" = 30 where "id" = 'a'`.execute(db.kysely);
  const arrivedAfterCommit = readTurn(db);
  await READ_V.run(db, 'b');
  expect(await READ_V.run(db, 'a', undefined, arrivedAfterCommit)).toMatchObject({ v: 30 });
  expect(await READ_V.run(db, 'a', undefined, beforeCommit)).toMatchObject({ v: 30 });
  await sql`update "kr" set "v" = 1 where "id" = 'a'`.execute(db.kysely);
});

it("reads the list's version as a kept keyed read: one query a turn, none when vouched for, a write made before seen", async () => {
  let loads = 0;
  const cache = new ClientListCache(db, async () => {
    loads += 1;
    return [];
  });
  const first = await cache.current();
  const queries = await queriesDuring(() =>
    Promise.all(Array.from({ length: 10 }, () => cache.current())),
  );
  // One snapshot check for the ten, and the list itself not read again: nothing changed.
  expect(queries).toBe(1);
  expect(loads).toBe(1);
  // A request whose first read (its session's) saw the kept rows' snapshot gets the version
  // with no query of its own.
  const arrived = readTurn(db);
  await READ_V.run(db, 'a');
  const vouched = await queriesDuring(() => cache.current(arrived));
  expect(vouched).toBe(0);
  await db.kysely.transaction().execute((trx) =>
    appendEvent(trx, 'postgres', {
      kind: 'client.created',
      clientId: 'c',
      actor: { id: 'u1', name: 'Someone' },
      fields: [],
      at: new Date().toISOString(),
    }),
  );
  const after = await cache.current();
  expect(after.summary.etag).not.toBe(first.summary.etag);
  expect(loads).toBe(2);
});
