import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import type { Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { GroupCommit } from './group-commit.ts';

describe('group commit', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase());
  });
  afterAll(async () => close());

  /** A group whose writes record events, appended at the end as the repository does. */
  function group(onCommitted: () => void = () => undefined) {
    return new GroupCommit<NewEvent>(db.kysely, {
      beforeCommit: async (trx, events) => void (await appendEvents(trx, db.dialect, events)),
      onCommitted,
    });
  }
  const event = (clientId: string, at: string): NewEvent => ({
    kind: 'client.created',
    clientId,
    actor: { id: null, name: 'test' },
    at,
    fields: [],
  });
  const events = () =>
    db.kysely.selectFrom('event').select(['seq', 'clientId']).orderBy('seq').execute();

  it('commits writes that arrive together, answers each after the commit, and rolls back only a failing one', async () => {
    let commits = 0;
    const writes = group(() => (commits += 1));
    const before = await events();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        writes.run(async (trx, at, record) => {
          record(event(`c${i}`, at));
          if (i === 17) throw new Error('refused');
          return i;
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(39);
    expect(results[17]).toMatchObject({ status: 'rejected', reason: new Error('refused') });
    // Started in the same tick: one transaction for all of them.
    expect(commits).toBe(1);
    const rows = (await events()).slice(before.length);
    // What each write recorded, in the order the writes ran, without the failed one's.
    expect(rows.map((r) => r.clientId)).toEqual(
      Array.from({ length: 40 }, (_, i) => `c${i}`).filter((c) => c !== 'c17'),
    );
    // The rolled-back write left no hole in the sequence.
    const first = Number(rows[0]!.seq);
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => first + i));
  });

  it('rolls back a failed write’s rows with it', async () => {
    const writes = group();
    const user = (id: string, email: string, at: string) =>
      verifiedUserRow(db.dialect, id, at, { name: 'Test', email });
    const results = await Promise.allSettled([
      writes.run(async (trx, at) => {
        await trx
          .insertInto('user')
          .values(user('kept', 'kept@example.test', at))
          .execute();
      }),
      writes.run(async (trx, at) => {
        await trx
          .insertInto('user')
          .values(user('gone', 'gone@example.test', at))
          .execute();
        // The same email again: the database refuses it, and the savepoint undoes both rows.
        await trx
          .insertInto('user')
          .values(user('gone2', 'gone@example.test', at))
          .execute();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    const ids = (await db.kysely.selectFrom('user').select('id').execute()).map((u) => u.id);
    expect(ids).toContain('kept');
    expect(ids).not.toContain('gone');
  });

  it('keeps no row of a write that fails after writing, alone or beside others', async () => {
    const writes = group();
    // Rows of a table nothing else in this file writes.
    const row = (id: string, at: string) => ({
      id,
      identifier: id,
      value: id,
      expiresAt: at,
      createdAt: at,
      updatedAt: at,
    });
    const insert = (trx: Transaction<Database>, id: string, at: string) =>
      trx.insertInto('verification').values(row(id, at)).execute();
    const refused = new Error('refused after writing');
    const failing = (id: string) =>
      writes.run(async (trx, at) => {
        await insert(trx, id, at);
        throw refused;
      });
    // Alone in its transaction.
    await expect(failing('lone')).rejects.toBe(refused);
    // Beside writes that succeed, before and after it in the same transaction.
    const results = await Promise.allSettled([
      writes.run(async (trx, at) => void (await insert(trx, 'first', at))),
      failing('middle'),
      writes.run(async (trx, at) => void (await insert(trx, 'last', at))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const kept = await db.kysely
      .selectFrom('verification')
      .select('id')
      .where('id', 'in', ['lone', 'first', 'middle', 'last'])
      .orderBy('id')
      .execute();
    expect(kept.map((v) => v.id)).toEqual(['first', 'last']);
  });

  it('answers no write of a batch whose recorded events cannot be written', async () => {
    const writes = new GroupCommit<NewEvent>(db.kysely, {
      beforeCommit: async (trx, recorded) => {
        await appendEvents(trx, db.dialect, recorded);
        throw new Error('the event log refused');
      },
      onCommitted: () => expect.unreachable('nothing was committed'),
    });
    const before = await events();
    const results = await Promise.allSettled([
      writes.run(async (_trx, at, record) => record(event('one', at))),
      writes.run(async (_trx, at, record) => record(event('two', at))),
    ]);
    expect(results).toEqual([
      { status: 'rejected', reason: new Error('the event log refused') },
      { status: 'rejected', reason: new Error('the event log refused') },
    ]);
    expect(await events()).toEqual(before);
  });
});
