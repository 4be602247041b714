import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import type { Db } from '#server/db/database.ts';
import { toBool } from '#server/db/codec.ts';

/**
 * On upgrade, everyone who could use the tool keeps what they could do (editor), with no tag
 * limit, and the oldest account becomes the administrator who can manage the others.
 */

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table as it was at 0009
const untyped = (): Kysely<any> => db.kysely;

const PEOPLE = [
  { id: 'u-second', email: 'second@example.test', createdAt: '2025-03-01T00:00:00.000Z' },
  { id: 'u-oldest', email: 'oldest@example.test', createdAt: '2024-01-01T00:00:00.000Z' },
  { id: 'u-third', email: 'third@example.test', createdAt: '2025-06-01T00:00:00.000Z' },
];

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0009-vault-and-host-keys' });
  db = opened.db;
  await untyped()
    .insertInto('user')
    .values(
      PEOPLE.map((p) =>
        verifiedUserRow(db.dialect, p.id, p.createdAt, { name: p.email, email: p.email }),
      ),
    )
    .execute();
  expect(await migrateToLatest(db)).toContain('0010-people-and-second-factors');
}, 120_000);
afterAll(async () => opened.close());

it('makes the oldest account the admin and everyone else an editor of every client', async () => {
  const rows = await db.kysely
    .selectFrom('user')
    .select(['id', 'role', 'tags', 'twoFactorEnabled', 'lastSignInAt'])
    .orderBy('id')
    .execute();
  expect(rows.map((row) => ({ ...row, twoFactorEnabled: toBool(row.twoFactorEnabled) }))).toEqual([
    { id: 'u-oldest', role: 'admin', tags: null, twoFactorEnabled: false, lastSignInAt: null },
    { id: 'u-second', role: 'editor', tags: null, twoFactorEnabled: false, lastSignInAt: null },
    { id: 'u-third', role: 'editor', tags: null, twoFactorEnabled: false, lastSignInAt: null },
  ]);
});

it('adds empty tables for second factors and invitations', async () => {
  for (const table of ['twoFactor', 'passkey', 'invitation'] as const) {
    expect(await db.kysely.selectFrom(table).selectAll().execute()).toEqual([]);
  }
});
