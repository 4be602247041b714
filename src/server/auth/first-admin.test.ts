import { afterEach, describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '#server/testing/test-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function roleOf(session: Session): Promise<Me['role']> {
  const me = await session.json<Me>('GET', '/api/me');
  expect(me.status).toBe(200);
  return me.body.role;
}

async function rolesInDatabase(s: TestServer): Promise<string[]> {
  const rows = await s.app.parts.db.kysely
    .selectFrom('user')
    .select('role')
    .orderBy('createdAt')
    .execute();
  return rows.map((r) => r.role);
}

describe('the role of a new person', () => {
  it('is admin for the first person of a new installation, DEFAULT_ROLE (editor) after', async () => {
    server = await startTestServer();
    expect(await roleOf(await signUpVerified(server, { name: 'First' }))).toBe('admin');
    expect(await roleOf(await signUpVerified(server, { name: 'Second' }))).toBe('editor');
    expect(await roleOf(await signUpVerified(server, { name: 'Third' }))).toBe('editor');
  });

  it('follows DEFAULT_ROLE=viewer after the first, who is still admin', async () => {
    server = await startTestServer({ DEFAULT_ROLE: 'viewer' });
    expect(await roleOf(await signUpVerified(server))).toBe('admin');
    expect(await roleOf(await signUpVerified(server))).toBe('viewer');
  });

  it('stays admin when the first person starts a pending sign-up over after someone else', async () => {
    server = await startTestServer();
    const email = uniqueEmail('first');
    // The first sign-up is never verified; a colleague signs up meanwhile.
    const pending = await new Session(server).request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'first password 1',
      name: 'First',
    });
    expect(pending.status).toBe(200);
    expect(await roleOf(await signUpVerified(server, { name: 'Colleague' }))).toBe('editor');
    // Signing up again removes the unverified account and makes it anew: still the admin, so
    // the installation is not left without one.
    const again = await signUpVerified(server, { email, password: 'first password 2' });
    expect(await roleOf(again)).toBe('admin');
    expect((await rolesInDatabase(server)).sort()).toEqual(['admin', 'editor']);
  });

  it('keeps a pending first admin through a sign-up of their address that is refused', async () => {
    server = await startTestServer();
    const email = uniqueEmail('owner');
    const owner = await new Session(server).request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'owner password 1',
      name: 'Owner',
    });
    expect(owner.status).toBe(200);
    const ownersRow = async () =>
      server!.app.parts.db.kysely
        .selectFrom('user')
        .select(['id', 'role'])
        .where('email', '=', email)
        .executeTakeFirst();
    const pending = await ownersRow();
    expect(pending?.role).toBe('admin');

    // Each is refused by Better Auth after the before-hooks: a short password, a field nobody
    // may set, a cross-site form navigation.
    const refused: [Record<string, unknown>, Record<string, string>][] = [
      [{ password: 'x' }, {}],
      [{ password: 'stranger password', tags: 'all' }, {}],
      [{ password: 'stranger password', listView: 'no such view' }, {}],
      [
        { password: 'stranger password' },
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', origin: '' },
      ],
    ];
    for (const [body, headers] of refused) {
      const response = await new Session(server).request(
        'POST',
        '/api/auth/sign-up/email',
        { email, name: 'Stranger', ...body },
        headers,
      );
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(await ownersRow()).toEqual(pending);
    }

    // The stranger's own sign-up is not the first admin.
    expect(await roleOf(await signUpVerified(server, { name: 'Stranger' }))).toBe('editor');
  });

  it('leaves at least one admin when the first two sign up at the same moment', async () => {
    server = await startTestServer();
    const s = server;
    const sessions = await Promise.all([signUpVerified(s), signUpVerified(s), signUpVerified(s)]);
    const roles = await Promise.all(sessions.map(roleOf));
    // Each may read "no admin yet" before another's insert commits (two admins, never none).
    expect(roles.filter((role) => role === 'admin').length).toBeGreaterThanOrEqual(1);
    expect(roles.every((role) => role === 'admin' || role === 'editor')).toBe(true);
  });
});
