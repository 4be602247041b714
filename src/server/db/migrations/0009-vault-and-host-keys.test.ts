import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDialect } from '#server/testing/test-database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import type { Db } from '#server/db/database.ts';
import { toIso } from '#server/db/codec.ts';
import { appendEvents, readLoggedEventsAfter } from '#server/realtime/event-log.ts';

/**
 * Migration 0009 lets an event name a credential and no client. On SQLite that means making
 * the event table again: every row must come back with its number, and the AUTOINCREMENT
 * counter must go on from where it was, so no number is ever given twice.
 */

const EVENTS = 2_000;
/** On SQLite the counter is set past the last row, as numbers of a deleted tail would leave it. */
const COUNTER_AHEAD = 5;

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
let before: Record<string, unknown>[];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table as it was at 0008
const untyped = (): Kysely<any> => db.kysely;

function oldEvent(i: number) {
  return {
    seq: i + 1,
    kind: i % 3 === 0 ? 'server.checked' : 'client.updated',
    clientId: `c${i % 97}`,
    serverId: i % 3 === 0 ? `s${i % 13}` : null,
    actorId: i % 2 === 0 ? 'u1' : null,
    actorName: i % 2 === 0 ? 'ada@example.com' : `command line ${"'quoted' $(x)"}`,
    at: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
    fields: JSON.stringify(i % 3 === 0 ? ['status:reachable'] : ['name', 'tags']),
  };
}

const normalised = (row: Record<string, unknown>) => ({
  seq: Number(row.seq),
  kind: row.kind,
  clientId: row.clientId,
  serverId: row.serverId,
  actorId: row.actorId,
  actorName: row.actorName,
  at: toIso(row.at as string | Date),
  fields: row.fields,
});

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0008-event-server' });
  db = opened.db;
  const rows = Array.from({ length: EVENTS }, (_, i) => oldEvent(i));
  for (let i = 0; i < rows.length; i += 200) {
    if (db.dialect === 'postgres') {
      // The identity column is `generated always`: the numbers are given as the app gives them.
      for (const row of rows.slice(i, i + 200)) {
        await sql`insert into "event" ("seq", "kind", "clientId", "serverId", "actorId", "actorName", "at", "fields")
          overriding system value values (${row.seq}, ${row.kind}, ${row.clientId}, ${row.serverId}, ${row.actorId}, ${row.actorName}, ${row.at}, ${row.fields})`.execute(
          db.kysely,
        );
      }
    } else {
      await untyped()
        .insertInto('event')
        .values(rows.slice(i, i + 200))
        .execute();
    }
  }
  if (db.dialect === 'sqlite') {
    await sql`update "sqlite_sequence" set "seq" = ${EVENTS + COUNTER_AHEAD} where "name" = 'event'`.execute(
      db.kysely,
    );
  }
  before = (await untyped().selectFrom('event').selectAll().orderBy('seq').execute()).map(
    normalised,
  );
  expect((await migrateToLatest(db))[0]).toBe('0009-vault-and-host-keys');
}, 120_000);
afterAll(async () => opened.close());

describe(`migration 0009 on ${testDialect()}`, () => {
  it('keeps every event, value for value, with no credential', async () => {
    const after = await db.kysely.selectFrom('event').selectAll().orderBy('seq').execute();
    expect(after.map(normalised)).toEqual(before);
    expect(after.every((row) => row.credentialId === null)).toBe(true);
  });

  it('numbers the next event after every number given before, and takes a credential event', async () => {
    const at = new Date().toISOString();
    const [seq] = await db.kysely.transaction().execute((trx) =>
      appendEvents(trx, db.dialect, [
        {
          kind: 'credential.created',
          clientId: null,
          credentialId: 'k1',
          actor: { id: null, name: 'test' },
          fields: ['name', 'kind', 'secret'],
          at,
        },
      ]),
    );
    expect(seq).toBe(EVENTS + 1 + (db.dialect === 'sqlite' ? COUNTER_AHEAD : 0));
    const [logged] = await readLoggedEventsAfter(db.kysely, seq! - 1, 10);
    expect(logged?.event).toMatchObject({
      kind: 'credential.created',
      clientId: null,
      credentialId: 'k1',
    });
  });

  it('keeps the indexes the readers use', async () => {
    const names =
      db.dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`select "name" from "sqlite_master" where "type" = 'index' and "tbl_name" = 'event'`.execute(
            db.kysely,
          )
        : await sql<{
            name: string;
          }>`select indexname as "name" from pg_indexes where tablename = 'event'`.execute(
            db.kysely,
          );
    expect(names.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'event_clientId_idx',
        'event_serverId_idx',
        'event_credentialId_idx',
      ]),
    );
  });
});
