import { afterEach, describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import { signInThroughIssuer, startGoogleTestServer } from '#server/testing/google-test-server.ts';
import {
  Session,
  confirmSignUp,
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

  it('goes to the first person who confirms their address, not to a sign-up nobody confirmed', async () => {
    server = await startTestServer();
    const s = server;
    // Whoever signs up an address chooses its password: a sign-up of an address nobody
    // confirms (a stranger's, of a colleague's address or one nobody reads) holds no role that
    // matters, and the operator who confirms next is the administrator.
    const unconfirmed = await new Session(s).request('POST', '/api/auth/sign-up/email', {
      email: uniqueEmail('unread'),
      password: 'stranger password 1',
      name: 'Stranger',
    });
    expect(unconfirmed.status).toBe(200);
    expect(await rolesInDatabase(s)).toEqual(['editor']);
    expect(await roleOf(await signUpVerified(s, { name: 'Operator' }))).toBe('admin');
    expect(await rolesInDatabase(s)).toEqual(['editor', 'admin']);
  });

  it('goes to the first person who comes through a provider, after a sign-up nobody confirmed', async () => {
    const google = await startGoogleTestServer();
    try {
      const s = google.server;
      const unconfirmed = await new Session(s).request('POST', '/api/auth/sign-up/email', {
        email: uniqueEmail('unread'),
        password: 'stranger password 1',
        name: 'Stranger',
      });
      expect(unconfirmed.status).toBe(200);
      const { session } = await signInThroughIssuer(s, google.issuer, uniqueEmail('provider'));
      expect(await roleOf(session)).toBe('admin');
      expect(await roleOf(await signUpVerified(s, { name: 'Colleague' }))).toBe('editor');
    } finally {
      await google.close();
    }
  });

  it('makes a pending sign-up confirmed after the administrator a DEFAULT_ROLE person', async () => {
    server = await startTestServer({ DEFAULT_ROLE: 'viewer' });
    const s = server;
    const email = uniqueEmail('late');
    const late = new Session(s);
    const before = s.mail.mails.length;
    const signUp = await late.request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'late password 1',
      name: 'Late',
    });
    expect(signUp.status).toBe(200);
    const link = await s.mail.waitFor(email, 'Verify your email', before);
    expect(await roleOf(await signUpVerified(s, { name: 'Operator' }))).toBe('admin');
    expect((await confirmSignUp(late, link, 'late password 1')).status).toBe(200);
    expect(await roleOf(late)).toBe('viewer');
  });

  it('keeps a pending sign-up through a sign-up of its address that is refused', async () => {
    server = await startTestServer();
    const s = server;
    const email = uniqueEmail('owner');
    const owner = new Session(s);
    const before = s.mail.mails.length;
    const signUp = await owner.request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'owner password 1',
      name: 'Owner',
    });
    expect(signUp.status).toBe(200);
    const link = await s.mail.waitFor(email, 'Verify your email', before);
    const ownersRow = async () =>
      s.app.parts.db.kysely
        .selectFrom('user')
        .select(['id', 'role'])
        .where('email', '=', email)
        .executeTakeFirst();
    const pending = await ownersRow();
    expect(pending).toBeDefined();

    // Each is refused by Better Auth after the before-hooks: a short password, a field nobody
    // may set, a cross-site form navigation. None may remove the owner's pending account.
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
      const response = await new Session(s).request(
        'POST',
        '/api/auth/sign-up/email',
        { email, name: 'Stranger', ...body },
        headers,
      );
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(await ownersRow()).toEqual(pending);
    }

    // The owner's link still works, and they are the installation's administrator.
    expect((await confirmSignUp(owner, link, 'owner password 1')).status).toBe(200);
    expect(await roleOf(owner)).toBe('admin');
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
