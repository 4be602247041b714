import { describe, expect, it } from 'vitest';
import { serveThisFile } from '#server/testing/file-server.ts';
import { disableLeavingSessions } from '#server/testing/access.ts';

const t = serveThisFile({
  staff: { admin: { name: 'Admin' }, leaver: { name: 'Leaver', password: 'the leaver pw 1' } },
});

/** The leaver's sessions in the database. */
async function sessionsOfLeaver(id: string): Promise<number> {
  const rows = await t.server.app.parts.db.kysely
    .selectFrom('session')
    .select('id')
    .where('userId', '=', id)
    .execute();
  return rows.length;
}

describe("Better Auth's own routes, with a session the guard refuses", () => {
  it("end a disabled person's session instead of changing their account", async () => {
    // Disabled while a session still exists: disabling deletes the sessions too, but a sign-in
    // that passed its check a moment before the disabling can leave one behind.
    const id = await disableLeavingSessions(t.server, t.staff.leaver);
    expect(await sessionsOfLeaver(id)).toBe(1);

    const rename = await t.staff.leaver.json('POST', '/api/auth/update-user', { name: 'Renamed' });
    expect(rename.status).toBe(401);
    expect(await sessionsOfLeaver(id)).toBe(0);
    for (const [path, body] of [
      [
        '/api/auth/change-password',
        { currentPassword: 'the leaver pw 1', newPassword: 'new pw 12345' },
      ],
      ['/api/auth/two-factor/enable', { password: 'the leaver pw 1' }],
    ] as const) {
      expect((await t.staff.leaver.json('POST', path, body)).status, path).toBe(401);
    }
    const session = await t.staff.leaver.json('GET', '/api/auth/get-session');
    expect(session.body).toBeNull();

    const stored = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select(['name', 'twoFactorEnabled'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Leaver');
    expect(Boolean(stored.twoFactorEnabled)).toBe(false);
    // Everyone else's sessions stay.
    expect((await t.staff.admin.json('GET', '/api/auth/get-session')).body).not.toBeNull();
    expect((await t.staff.admin.json('GET', '/api/me')).status).toBe(200);
  });
});
