import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import type { Db } from '#server/db/database.ts';

/** Tokens an earlier version kept from a provider sign-in are gone after the upgrade. */

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
const at = '2025-01-01T00:00:00.000Z';

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0015-one-two-factor-per-person' });
  db = opened.db;
  await db.kysely
    .insertInto('user')
    .values(
      verifiedUserRow(db.dialect, 'u-google', at, {
        email: 'google@example.test',
        name: 'Signed in with Google',
      }),
    )
    .execute();
  await db.kysely
    .insertInto('account')
    .values([
      {
        id: 'a-google',
        accountId: 'google-subject',
        providerId: 'google',
        userId: 'u-google',
        accessToken: 'ya29.an-access-token',
        refreshToken: '1//a-refresh-token',
        idToken: 'eyJ.an-id-token',
        accessTokenExpiresAt: at,
        refreshTokenExpiresAt: at,
        scope: 'openid email profile',
        password: null,
        createdAt: at,
        updatedAt: at,
      },
      {
        id: 'a-password',
        accountId: 'u-google',
        providerId: 'credential',
        userId: 'u-google',
        password: 'scrypt-hash',
        createdAt: at,
        updatedAt: at,
      },
    ])
    .execute();
  expect(await migrateToLatest(db)).toContain('0016-no-provider-tokens');
}, 120_000);
afterAll(async () => opened.close());

it('empties every provider token and leaves the rest of each account', async () => {
  const rows = await db.kysely
    .selectFrom('account')
    .select([
      'id',
      'accessToken',
      'refreshToken',
      'idToken',
      'accessTokenExpiresAt',
      'refreshTokenExpiresAt',
      'scope',
      'password',
    ])
    .orderBy('id')
    .execute();
  expect(rows).toEqual([
    {
      id: 'a-google',
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: 'openid email profile',
      password: null,
    },
    {
      id: 'a-password',
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: null,
      password: 'scrypt-hash',
    },
  ]);
});
