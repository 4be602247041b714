import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { GroupCommit } from './group-commit.ts';

// SQLite only: PostgreSQL writes keep a transaction each (the server groups their flushes).
describe('group commit (SQLite)', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-group-'));
    db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const event = (clientId: string, at: string) => ({
    kind: 'client.created',
    clientId,
    actorId: null,
    actorName: 'test',
    at,
    fields: '[]',
  });

  it('commits writes that arrive together, answers each after the commit, and rolls back only a failing one', async () => {
    let commits = 0;
    const group = new GroupCommit(db.kysely, () => (commits += 1));
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        group.run(async (trx, at) => {
          await trx
            .insertInto('event')
            .values(event(`c${i}`, at))
            .execute();
          if (i === 17) throw new Error('refused');
          const { n } = await trx
            .selectFrom('event')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('clientId', '=', `c${i}`)
            .executeTakeFirstOrThrow();
          return Number(n);
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(39);
    expect(results[17]).toMatchObject({ status: 'rejected', reason: new Error('refused') });
    // Started in the same tick: one transaction for all of them.
    expect(commits).toBe(1);
    const rows = await db.kysely
      .selectFrom('event')
      .select(['seq', 'clientId'])
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.clientId)).not.toContain('c17');
    expect(rows).toHaveLength(39);
    // The rolled-back write left no hole in the sequence.
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
  });

  it('answers no write of a batch whose commit fails', async () => {
    const group = new GroupCommit(db.kysely, () => undefined);
    const before = await db.kysely.selectFrom('event').select('seq').execute();
    const results = await Promise.allSettled([
      group.run(async (trx, at) => {
        await trx.insertInto('event').values(event('ok', at)).execute();
      }),
      // A foreign key checked only at commit: the commit fails, and the whole batch with it.
      group.run(async (trx, at) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto('deployToken')
          .values({ userId: 'nobody', token: 'x', updatedAt: at })
          .execute();
      }),
    ]);
    const after = await db.kysely.selectFrom('event').select('seq').execute();
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(after).toHaveLength(before.length);
  });
});
