import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { openProblem, resolveProblems, serverProblemKey } from './problem-issues.ts';

/**
 * openProblem and resolveProblems below the HTTP layer, on the database under test: one open
 * issue per problem key, from one transaction after another and from two at once.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
let clientId: string;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  clientId = newRecordId();
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('client')
    .values({
      id: clientId,
      name: 'Problem Ltd',
      code: 'PROB',
      description: '',
      tags: '[]',
      startDate: '2026-01-01',
      primaryServerId: null,
      domains: '[]',
      createdAt: at,
      createdBy: null,
      updatedAt: at,
      updatedBy: null,
      version: 1,
    })
    .execute();
});
afterAll(async () => database?.close());

function problem(key: string) {
  return { key, clientId, title: `Problem ${key}`, text: 'It broke', at: new Date().toISOString() };
}

function open(key: string): Promise<string | null> {
  return db.kysely.transaction().execute((trx) => openProblem(trx, db.dialect, problem(key)));
}

async function issuesOf(key: string) {
  return db.kysely
    .selectFrom('issue')
    .select(['id', 'state', 'resolvedByName'])
    .where('problemKey', '=', key)
    .orderBy('createdAt')
    .execute();
}

async function eventsOf(ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('event')
    .select(['kind', 'issueId', 'actorName', 'fields'])
    .where('issueId', 'in', ids)
    .orderBy('seq')
    .execute();
}

describe('openProblem', () => {
  it('opens one issue per open problem, with one event, however often it is noticed', async () => {
    const key = serverProblemKey(newRecordId(), 'server_unreachable');
    const first = await open(key);
    expect(first).not.toBeNull();
    expect(await open(key)).toBeNull();
    expect(await open(key)).toBeNull();
    expect(await issuesOf(key)).toEqual([{ id: first, state: 'open', resolvedByName: null }]);
    expect(await eventsOf([first!])).toEqual([
      { kind: 'issue.opened', issueId: first, actorName: 'system', fields: '["problem"]' },
    ]);
  });

  it('opens a new issue once the last one of its key was resolved', async () => {
    const key = serverProblemKey(newRecordId(), 'host_key_changed');
    const first = await open(key);
    const resolved = await db.kysely
      .transaction()
      .execute((trx) => resolveProblems(trx, db.dialect, [key], new Date().toISOString()));
    expect(resolved).toBe(1);
    const again = await db.kysely
      .transaction()
      .execute((trx) => resolveProblems(trx, db.dialect, [key], new Date().toISOString()));
    expect(again).toBe(0);
    const second = await open(key);
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect(await issuesOf(key)).toEqual([
      { id: first, state: 'resolved', resolvedByName: 'system' },
      { id: second, state: 'open', resolvedByName: null },
    ]);
    expect((await eventsOf([first!, second!])).map((e) => e.kind)).toEqual([
      'issue.opened',
      'issue.resolved',
      'issue.opened',
    ]);
  });

  it('opens one issue when two transactions notice the same problem at once', async () => {
    const key = serverProblemKey(newRecordId(), 'server_unreachable');
    // Both transactions insert before either commits: on PostgreSQL the second waits on the
    // unique index for the first to commit, then does nothing; SQLite has one writer at a time.
    let entered = 0;
    let bothIn!: () => void;
    const together = new Promise<void>((resolve) => (bothIn = resolve));
    const racer = () =>
      db.kysely.transaction().execute(async (trx) => {
        entered += 1;
        if (entered === 2) bothIn();
        if (db.dialect === 'postgres') await together;
        return openProblem(trx, db.dialect, problem(key));
      });
    const results = await Promise.all([racer(), racer()]);
    expect(results.filter((id) => id !== null)).toHaveLength(1);
    expect(await issuesOf(key)).toHaveLength(1);
  });
});
