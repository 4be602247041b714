import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.ts';

// The quick reader's snapshot lasts until the event loop's turn ends (quick-reader.ts): these
// pin down what a read inside one turn may and may not see.
describe('quick reader snapshots', () => {
  let dir: string;
  let file: string;
  let db: Db;
  const readV = (id: string) =>
    db.quickReader!().byKey<{ v: number }>('select v from t where id = ?', id)?.v;
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-quick-reader-'));
    file = path.join(dir, 'db.sqlite');
    db = openDatabase({ kind: 'sqlite', file });
    await sql`create table t (id text primary key, v integer, pad blob)`.execute(db.kysely);
  });
  afterEach(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sees a commit of this process at once, within the same turn', async () => {
    expect(readV('a')).toBeUndefined();
    await sql`insert into t (id, v) values ('a', 1)`.execute(db.kysely);
    expect(readV('a')).toBe(1);
    await db.kysely.transaction().execute(async (trx) => {
      await sql`update t set v = 2 where id = 'a'`.execute(trx);
      // Not committed yet: the reader must not see it.
      expect(readV('a')).toBe(1);
    });
    expect(readV('a')).toBe(2);
  });

  it('sees a commit of another process from the next turn on, or after 5 ms', async () => {
    const other = new SQLite(file);
    try {
      expect(readV('b')).toBeUndefined();
      other.prepare(`insert into t (id, v) values ('b', 7)`).run();
      await nextTurn();
      expect(readV('b')).toBe(7);

      expect(readV('c')).toBeUndefined();
      other.prepare(`insert into t (id, v) values ('c', 8)`).run();
      // The same turn, a moment later (a turn that polled its sockets again).
      const until = performance.now() + 6;
      while (performance.now() < until);
      expect(readV('c')).toBe(8);
    } finally {
      other.close();
    }
  });

  it('hands out the row it read until any commit, then reads anew', async () => {
    const read = () => db.quickReader!().byKey<{ v: number }>('select v from t where id = ?', 'a');
    await sql`insert into t (id, v) values ('a', 1), ('b', 1)`.execute(db.kysely);
    const first = read();
    await nextTurn();
    // Nothing committed since: the very same row, not read again.
    expect(read()).toBe(first);

    // Another row changed, by another process: every kept row is dropped, as SQLite cannot say
    // which rows a commit touched. The next read is a new one, with the same values.
    const other = new SQLite(file);
    try {
      other.prepare(`update t set v = 2 where id = 'b'`).run();
    } finally {
      other.close();
    }
    await nextTurn();
    const again = read();
    expect(again).not.toBe(first);
    expect(again).toEqual({ v: 1 });

    // A commit of this process, in the same turn as the read before it.
    await sql`update t set v = 3 where id = 'a'`.execute(db.kysely);
    expect(read()).toEqual({ v: 3 });
  });

  it('leaves the checkpoint free to restart the WAL while reads and writes interleave', async () => {
    await sql`pragma wal_autocheckpoint = 16`.execute(db.kysely);
    const pad = Buffer.alloc(4096, 1);
    for (let i = 0; i < 300; i += 1) {
      readV('a');
      await sql`insert into t (id, v, pad) values (${`r${i}`}, ${i}, ${pad})`.execute(db.kysely);
    }
    expect(readV('r299')).toBe(299);
    // 300 rows of 4 KB went through a WAL that restarts after every 16 pages (64 KB): without
    // the restarts it would hold them all, over 1.2 MB.
    expect(fs.statSync(`${file}-wal`).size).toBeLessThan(400_000);
  });
});
