import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Db } from './database.ts';
import { KeyedRead } from './keyed-read.ts';

const READ_V = new KeyedRead<{ v: number }>({
  key: '"kr"."id"',
  columns: '"kr"."v"',
  from: '"kr"',
});

describe('keyed reads', () => {
  let db: Db;
  let close: () => Promise<void>;
  const v = async (id: string) => (await READ_V.run(db, id))?.v;
  const set = (id: string, value: number) =>
    sql`insert into "kr" ("id", "v") values (${id}, ${value})
        on conflict ("id") do update set "v" = ${value}`.execute(db.kysely);

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase());
    await sql`create table "kr" ("id" text primary key, "v" integer not null)`.execute(db.kysely);
    await set('a', 1);
    await set('b', 2);
  });
  afterAll(() => close());

  it('reads each row by its key, and nothing for a key with no row', async () => {
    // Asked in one turn: on PostgreSQL one query answers them all, each with its own row.
    expect(await Promise.all(['a', 'b', 'a', 'none', 'b'].map(v))).toEqual([1, 2, 1, undefined, 2]);
  });

  it('sees every commit made before it was asked', async () => {
    expect(await v('c')).toBeUndefined();
    await set('c', 3);
    expect(await v('c')).toBe(3);
    await set('c', 4);
    expect(await v('c')).toBe(4);
  });

  it('reads inside a transaction what that transaction wrote, and outside only once committed', async () => {
    await db.kysely.transaction().execute(async (trx) => {
      await sql`update "kr" set "v" = 10 where "id" = 'a'`.execute(trx);
      expect((await READ_V.run(db, 'a', trx))?.v).toBe(10);
      expect(await v('a')).toBe(1);
    });
    expect(await v('a')).toBe(10);
  });

  it('answers a key that cannot be stored (NUL) with nothing, and fails no other read', async () => {
    expect(await Promise.all(['b', 'a\0', 'c'].map(v))).toEqual([2, undefined, 4]);
  });
});
