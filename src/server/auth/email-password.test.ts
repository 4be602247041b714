import { describe, expect, it } from 'vitest';
import {
  followPasswordResetMail,
  Session,
  signUpVerified,
  uniqueEmail,
} from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile();

/** An address of exactly `length` characters, unique to this run: labels of at most 63. */
function addressOfLength(length: number): string {
  const local = uniqueEmail('long').split('@')[0]!;
  const tail = '.example.test';
  let domain = '';
  while (local.length + 1 + domain.length + tail.length < length) {
    const room = length - (local.length + 1 + domain.length + tail.length);
    domain +=
      domain === ''
        ? 'd'.repeat(Math.min(room, 60))
        : `.${'d'.repeat(Math.min(room - 1, 60) || 1)}`;
  }
  const address = `${local}@${domain}${tail}`;
  if (address.length !== length) throw new Error(`made ${address.length}, not ${length}`);
  return address;
}

describe('email + password accounts', () => {
  it('signs up, verifies through the mailed link, and is signed in', async () => {
    const email = uniqueEmail();
    const session = await signUpVerified(t.server, { email, name: 'Ada Staff' });
    const me = await session.json<{ email: string; displayName: string; emailVerified: boolean }>(
      'GET',
      '/api/me',
    );
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, displayName: 'Ada Staff', emailVerified: true });
  });

  it('keeps an unverified user out and resends the mail when they try to sign in', async () => {
    const email = uniqueEmail('unverified');
    const session = new Session(t.server);
    const signUp = await session.request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'long enough pw',
      name: '',
    });
    expect(signUp.status).toBe(200);
    expect(session.cookies.size).toBe(0);
    expect((await session.json('GET', '/api/me')).status).toBe(401);

    const before = t.server.mail.mails.length;
    const signIn = await session.json<{ code: string }>('POST', '/api/auth/sign-in/email', {
      email,
      password: 'long enough pw',
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe('EMAIL_NOT_VERIFIED');
    await t.server.mail.waitFor(email, 'Verify your email', before);

    const resend = await session.request('POST', '/api/auth/send-verification-email', {
      email,
      callbackURL: '/',
    });
    expect(resend.status).toBe(200);
  });

  it('refuses a sign-up address longer than 254 characters, naming the field, and makes no user', async () => {
    const users = (email: string) =>
      t.server.app.parts.db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', email)
        .execute();
    for (const email of [addressOfLength(255), addressOfLength(100_000)]) {
      const refused = await new Session(t.server).json<{ message: string }>(
        'POST',
        '/api/auth/sign-up/email',
        { email, password: 'long enough pw', name: '' },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('email: Must be at most 254 characters');
      expect(await users(email)).toEqual([]);
    }
    // The longest address there can be still signs up.
    const longest = addressOfLength(254);
    const accepted = await new Session(t.server).request('POST', '/api/auth/sign-up/email', {
      email: longest,
      password: 'long enough pw',
      name: '',
    });
    expect(accepted.status).toBe(200);
    expect(await users(longest)).toHaveLength(1);
  });

  it('resets a forgotten password through the mailed link', async () => {
    const email = uniqueEmail('forgetful');
    await signUpVerified(t.server, { email, password: 'old password 1' });
    const anon = new Session(t.server);
    const landing = await followPasswordResetMail(t.server, anon, email);
    expect(landing.status).toBe(302);
    const location = new URL(landing.headers.get('location')!, t.server.url);
    expect(location.pathname).toBe('/reset-password');
    const token = location.searchParams.get('token');
    expect(token).toBeTruthy();

    const reset = await anon.request('POST', '/api/auth/reset-password', {
      newPassword: 'new password 2',
      token,
    });
    expect(reset.status).toBe(200);
    const oldSignIn = await anon.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'old password 1',
    });
    expect(oldSignIn.status).toBe(401);
    const newSignIn = await anon.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'new password 2',
    });
    expect(newSignIn.status).toBe(200);
    expect((await anon.json('GET', '/api/me')).status).toBe(200);
  });

  it('forgets every other reset link once a reset or a password change is done', async () => {
    const email = uniqueEmail('twice-reset');
    const owner = await signUpVerified(t.server, { email, password: 'old password 1' });
    const tokenOf = async () => {
      const landing = await followPasswordResetMail(t.server, new Session(t.server), email);
      return new URL(landing.headers.get('location')!, t.server.url).searchParams.get('token');
    };
    const reset = (token: string | null, newPassword: string) =>
      new Session(t.server).request('POST', '/api/auth/reset-password', { token, newPassword });

    // Two links asked for (one of them, say, by someone with the mailbox for a while): the
    // owner uses the newer; the older one no longer sets a password.
    const older = await tokenOf();
    const newer = await tokenOf();
    expect((await reset(newer, 'owner password 2')).status).toBe(200);
    expect((await reset(older, 'attacker pass 1')).status).toBe(400);

    // A link asked for before the owner changed the password in Settings.
    const before = await tokenOf();
    await owner.request('POST', '/api/auth/sign-in/email', { email, password: 'owner password 2' });
    const changed = await owner.request('POST', '/api/auth/change-password', {
      currentPassword: 'owner password 2',
      newPassword: 'owner password 3',
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    expect((await reset(before, 'attacker pass 2')).status).toBe(400);
    const signIn = await new Session(t.server).request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'owner password 3',
    });
    expect(signIn.status).toBe(200);
  });

  it('signs out: the session cookie stops working', async () => {
    const session = await signUpVerified(t.server);
    const cookie = session.cookieHeader;
    expect((await session.request('POST', '/api/auth/sign-out', {})).status).toBe(200);
    const reused = await fetch(`${t.server.url}/api/me`, { headers: { cookie } });
    expect(reused.status).toBe(401);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax', async () => {
    const email = uniqueEmail();
    await signUpVerified(t.server, { email, password: 'cookie check pw' });
    const response = await fetch(`${t.server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.server.url },
      body: JSON.stringify({ email, password: 'cookie check pw' }),
    });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('cm.session_token='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});
