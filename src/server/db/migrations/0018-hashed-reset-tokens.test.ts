import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { Session, startTestServer, type TestServer } from '#server/testing/test-server.ts';
import { migrateToLatest } from '#server/db/migrate.ts';

/** A reset link mailed before the upgrade still works, and its token is no longer stored. */

const TOKEN = 'mailed-before-the-upgrade-0123';
let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let server: TestServer;

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0017-webhook-delivery-keep' });
  const { db } = opened;
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('user')
    .values(
      verifiedUserRow(db.dialect, 'u-reset', at, {
        email: 'reset@example.test',
        name: 'Asked for a reset',
      }),
    )
    .execute();
  await db.kysely
    .insertInto('verification')
    .values([
      {
        id: 'v-reset',
        identifier: `reset-password:${TOKEN}`,
        value: 'u-reset',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdAt: at,
        updatedAt: at,
      },
      {
        id: 'v-2fa',
        identifier: '2fa-pending-sign-in',
        value: 'u-reset',
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
        createdAt: at,
        updatedAt: at,
      },
    ])
    .execute();
  expect(await migrateToLatest(db)).toContain('0018-hashed-reset-tokens');
  server = await startTestServer({ DATABASE_URL: opened.url });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await opened.close();
});

it('hashes stored reset tokens only, and the link still sets the password once', async () => {
  const rows = await opened.db.kysely
    .selectFrom('verification')
    .select(['id', 'identifier'])
    .orderBy('id')
    .execute();
  expect(rows).toEqual([
    { id: 'v-2fa', identifier: '2fa-pending-sign-in' },
    { id: 'v-reset', identifier: expect.not.stringContaining(TOKEN) },
  ]);
  const reset = (token: string) =>
    new Session(server).request('POST', '/api/auth/reset-password', {
      token,
      newPassword: 'a new password',
    });
  expect((await reset(rows[1]!.identifier)).status).toBe(400);
  expect((await reset(TOKEN)).status).toBe(200);
  expect((await reset(TOKEN)).status).toBe(400);
  const signIn = await new Session(server).request('POST', '/api/auth/sign-in/email', {
    email: 'reset@example.test',
    password: 'a new password',
  });
  expect(signIn.status).toBe(200);
});
