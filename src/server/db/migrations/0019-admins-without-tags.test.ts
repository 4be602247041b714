import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import type { Db } from '#server/db/database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';

/** An administrator's tag limit, which never held, is lifted; everyone else's stays. */

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
const at = '2025-01-01T00:00:00.000Z';
const EU = JSON.stringify(['eu']);

beforeAll(async () => {
  opened = await openTestDatabase({ migrateTo: '0018-hashed-reset-tokens' });
  db = opened.db;
  const person = (id: string, role: string, tags: string | null) =>
    verifiedUserRow(db.dialect, id, at, { role, tags });
  await db.kysely
    .insertInto('user')
    .values([
      person('admin-limited', 'admin', EU),
      person('admin-free', 'admin', null),
      person('editor-limited', 'editor', EU),
    ])
    .execute();
  const invitation = (id: string, role: string) => ({
    id,
    email: `${id}@example.test`,
    role,
    tags: EU,
    tokenHash: `hash-${id}`,
    invitedById: 'admin-free',
    createdAt: at,
    expiresAt: '2999-01-01T00:00:00.000Z',
    acceptedAt: null,
  });
  await db.kysely
    .insertInto('invitation')
    .values([invitation('invited-admin', 'admin'), invitation('invited-viewer', 'viewer')])
    .execute();
  expect(await migrateToLatest(db)).toContain('0019-admins-without-tags');
}, 120_000);
afterAll(async () => opened.close());

it('lifts the tag limit of administrators and of invitations to be one, and no other', async () => {
  const people = await db.kysely.selectFrom('user').select(['id', 'tags']).orderBy('id').execute();
  expect(people).toEqual([
    { id: 'admin-free', tags: null },
    { id: 'admin-limited', tags: null },
    { id: 'editor-limited', tags: EU },
  ]);
  const invitations = await db.kysely
    .selectFrom('invitation')
    .select(['id', 'tags'])
    .orderBy('id')
    .execute();
  expect(invitations).toEqual([
    { id: 'invited-admin', tags: null },
    { id: 'invited-viewer', tags: EU },
  ]);
});
