import { fromNodeHeaders } from 'better-auth/node';
import { describe, expect, it } from 'vitest';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { sessionCheck } from './session-check.ts';

// The guard's session check must find, refuse and refresh exactly as Better Auth does.
describe('session check', () => {
  const t = serveThisFile();

  const db = () => t.server.app.parts.db.kysely;

  /** The stored expiry, in the form the driver returned it (so it can be written back alike). */
  async function sessionRow(session: Session) {
    const token = decodeURIComponent(session.cookies.get('cm.session_token')!).split('.')[0]!;
    const row = await db()
      .selectFrom('session')
      .select(['id', 'expiresAt'])
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    return { ...row, token };
  }

  function sameKind(example: unknown, date: Date) {
    if (typeof example === 'string') return date.toISOString();
    if (typeof example === 'number') return date.getTime();
    return date;
  }

  async function setExpiry(session: Session, date: Date) {
    const { token, expiresAt } = await sessionRow(session);
    await db()
      .updateTable('session')
      // The column holds what the driver gave back: an ISO string, a number or a Date.
      .set({ expiresAt: sameKind(expiresAt, date) as never })
      .where('token', '=', token)
      .execute();
  }

  it('refuses a cookie whose signature was changed', async () => {
    const session = await signUpVerified(t.server);
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
    const signed = decodeURIComponent(session.cookies.get('cm.session_token')!);
    // The signature's first character changed (never to itself). Not its last one: in base64
    // of 32 bytes the last character's low bits are padding, and A↔B there decodes to the very
    // same signature (a run of CI drew it).
    const at = signed.lastIndexOf('.') + 1;
    const swap = signed[at] === 'A' ? 'B' : 'A';
    const forged = `${signed.slice(0, at)}${swap}${signed.slice(at + 1)}`;
    session.cookies.set('cm.session_token', encodeURIComponent(forged));
    expect((await session.json('GET', '/api/clients')).status).toBe(401);
  });

  it('refuses a session the moment its row is gone (signed out elsewhere, revoked)', async () => {
    const session = await signUpVerified(t.server);
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
    const { token } = await sessionRow(session);
    await db().deleteFrom('session').where('token', '=', token).execute();
    expect((await session.json('GET', '/api/clients')).status).toBe(401);
  });

  it('refuses an expired session', async () => {
    const session = await signUpVerified(t.server);
    await setExpiry(session, new Date(Date.now() - 1000));
    expect((await session.json('GET', '/api/clients')).status).toBe(401);
  });

  it('refuses a disabled user at once', async () => {
    const session = await signUpVerified(t.server);
    const { id } = await sessionRow(session);
    const { userId } = await db()
      .selectFrom('session')
      .select('userId')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('user')
      .set({ disabled: t.server.app.parts.db.dialect === 'sqlite' ? 1 : true })
      .where('id', '=', userId)
      .execute();
    expect((await session.json('GET', '/api/clients')).status).toBe(403);
  });

  it('lets Better Auth move the expiry of a session a day old, and goes on answering', async () => {
    const session = await signUpVerified(t.server);
    // Seven-day sessions refresh hourly: six days left means it was last moved a day ago.
    const due = new Date(Date.now() + 6 * 24 * 3600 * 1000 - 60_000);
    await setExpiry(session, due);
    const answer = await session.request('GET', '/api/clients');
    expect(answer.status).toBe(200);
    const after = new Date((await sessionRow(session)).expiresAt).getTime();
    expect(after).toBeGreaterThan(due.getTime() + 12 * 3600 * 1000);
    // The browser's cookie is renewed with it: else it would lapse seven days after sign-in
    // however busy its person, the database's session living on without it.
    const renewed = answer.headers.getSetCookie().find((c) => c.startsWith('cm.session_token='));
    expect(renewed).toContain(`Max-Age=${7 * 24 * 3600}`);
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
  });

  it('refreshes a session last moved two hours ago: "Last active" is right to the hour', async () => {
    const session = await signUpVerified(t.server);
    const { token, expiresAt } = await sessionRow(session);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    // As a refresh two hours ago left it: expiring seven days after that refresh.
    const expiry = new Date(twoHoursAgo.getTime() + 7 * 24 * 3600 * 1000);
    await db()
      .updateTable('session')
      .set({
        expiresAt: sameKind(expiresAt, expiry) as never,
        updatedAt: sameKind(expiresAt, twoHoursAgo) as never,
      })
      .where('token', '=', token)
      .execute();
    const before = Date.now();
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
    const listed = await session.json<{ sessions: { current: boolean; lastSeenAt: string }[] }>(
      'GET',
      '/api/me/sessions',
    );
    const current = listed.body.sessions.find((s) => s.current)!;
    expect(new Date(current.lastSeenAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('answers as getSession does for the same Cookie headers', async () => {
    const { auth, db: database } = t.server.app.parts;
    const findSession = sessionCheck(auth, database);
    const session = await signUpVerified(t.server);
    const signed = decodeURIComponent(session.cookies.get('cm.session_token')!);
    const [token, signature] = [
      signed.slice(0, signed.lastIndexOf('.')),
      signed.slice(signed.lastIndexOf('.') + 1),
    ];
    const headers = [
      session.cookieHeader,
      `other=1; ${session.cookieHeader}`,
      `cm.session_token="${encodeURIComponent(signed)}"`,
      `cm.session_token=${encodeURIComponent(`${token}x.${signature}`)}`,
      `cm.session_token=${encodeURIComponent(`${token}.${signature.slice(1)}`)}`,
      `cm.session_token=${token}`,
      'cm.session_token=',
      '',
    ];
    const summary = (
      found: { session: { id: string }; user: { id: string; email: string } } | null,
    ) => found && { session: found.session.id, user: found.user.id, email: found.user.email };
    let matched = 0;
    for (const cookie of headers) {
      const ours = summary(await findSession(cookie ? { cookie } : {}));
      const theirs = summary(
        await auth.api.getSession({ headers: fromNodeHeaders(cookie ? { cookie } : {}) }),
      );
      expect(ours, cookie).toEqual(theirs);
      if (ours) matched += 1;
    }
    expect(matched).toBe(3);
  });
});
