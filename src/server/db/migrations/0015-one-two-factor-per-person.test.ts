import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import type { Db } from '#server/db/database.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { fromBool } from '#server/db/codec.ts';

/**
 * Two enables racing each other could leave a person two rows of codes. On upgrade each keeps
 * the one their app most likely holds, and the database takes no second row after.
 */

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;

const PEOPLE = ['u-both-verified', 'u-one-verified', 'u-none-verified', 'u-single'];

function factor(id: string, userId: string, verified: boolean, lastUsedStep: number | null) {
  return {
    id,
    userId,
    secret: `sealed-${id}`,
    backupCodes: `sealed-codes-${id}`,
    verified: fromBool(verified, db.dialect),
    lastUsedStep,
  };
}

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0014-totp-last-step' });
  db = opened.db;
  const at = '2025-01-01T00:00:00.000Z';
  await db.kysely
    .insertInto('user')
    .values(PEOPLE.map((id) => verifiedUserRow(db.dialect, id, at)))
    .execute();
  await db.kysely
    .insertInto('twoFactor')
    .values([
      factor('a-used-earlier', 'u-both-verified', true, 100),
      factor('b-used-last', 'u-both-verified', true, 200),
      factor('c-never-used', 'u-both-verified', true, null),
      factor('d-unconfirmed', 'u-one-verified', false, null),
      factor('e-confirmed', 'u-one-verified', true, null),
      factor('f-unconfirmed', 'u-none-verified', false, null),
      factor('g-unconfirmed', 'u-none-verified', false, null),
      factor('h-only', 'u-single', true, 5),
    ])
    .execute();
  expect(await migrateToLatest(db)).toContain('0015-one-two-factor-per-person');
}, 120_000);
afterAll(async () => opened.close());

it('keeps one row per person: verified first, then the one used last, then the lowest id', async () => {
  const rows = await db.kysely
    .selectFrom('twoFactor')
    .select(['userId', 'id'])
    .orderBy('userId')
    .execute();
  expect(rows).toEqual([
    { userId: 'u-both-verified', id: 'b-used-last' },
    { userId: 'u-none-verified', id: 'f-unconfirmed' },
    { userId: 'u-one-verified', id: 'e-confirmed' },
    { userId: 'u-single', id: 'h-only' },
  ]);
});

it('refuses a second row for a person', async () => {
  const second = db.kysely
    .insertInto('twoFactor')
    .values(factor('i-second', 'u-single', false, null))
    .execute();
  await expect(second).rejects.toSatisfy(isUniqueViolation);
});
