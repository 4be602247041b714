import { describe, expect, it } from 'vitest';
import { linkIn } from '#server/testing/mail-catcher.ts';
import { Session, confirmSignUp, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * Better Auth's origin check takes `/.//evil.example/phish` for a path of ours, and its error
 * redirect then turns it into `//evil.example/phish?error=…`, which a browser follows off the
 * app. Every place a person can be sent must stay on PUBLIC_URL's origin.
 */

const t = serveThisFile({ staff: { admin: { name: 'Admin' } } });

/** Paths that resolve to `//evil.example/…` once dot segments are removed. */
const OFF_ORIGIN_PATHS = [
  '/.//evil.example/phish',
  '/..//evil.example/phish',
  '/a/..//evil.example/phish',
  '/%2e//evil.example/phish',
  '/.%2e//evil.example/phish',
  '/./\\evil.example/phish',
];

/** Where the answer sends the browser, or null if it sends it nowhere. */
function destination(response: Response, requestUrl: string): string | null {
  const location = response.headers.get('location');
  return location === null ? null : new URL(location, requestUrl).origin;
}

describe('redirect targets', () => {
  it.each(OFF_ORIGIN_PATHS)(
    'GET /reset-password/:token never sends the browser off the app: %s',
    async (path) => {
      const url = `${t.server.url}/api/auth/reset-password/bogus?callbackURL=${encodeURIComponent(path)}`;
      const response = await fetch(url, { redirect: 'manual' });
      const origin = destination(response, url);
      if (origin === null) expect(response.status).toBe(403);
      else expect(origin).toBe(new URL(t.server.url).origin);
    },
  );

  it('refuses the review’s exact link, whose route is off since, and its like with 403', async () => {
    const review = await fetch(
      `${t.server.url}/api/auth/verify-email?token=bogus&callbackURL=%2F.%2F%2Fevil.example%2Fphish`,
      { redirect: 'manual' },
    );
    expect(review.headers.get('location')).toBeNull();
    expect([403, 404]).toContain(review.status);
    const response = await fetch(
      `${t.server.url}/api/auth/reset-password/bogus?callbackURL=%2F.%2F%2Fevil.example%2Fphish`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
    const body = (await response.json()) as { message: string };
    expect(body.message).toMatch(/^callbackURL: /);
  });

  it.each([
    ['/sign-in/social', { provider: 'google', callbackURL: '/.//evil.example/x' }, 'callbackURL'],
    [
      '/sign-in/social',
      { provider: 'google', errorCallbackURL: '/..//evil.example/x' },
      'errorCallbackURL',
    ],
    [
      '/sign-in/social',
      { provider: 'google', newUserCallbackURL: '/%2e//evil.example' },
      'newUserCallbackURL',
    ],
    [
      '/request-password-reset',
      { email: 'someone@example.test', redirectTo: '/.//evil.example/x' },
      'redirectTo',
    ],
    [
      '/send-verification-email',
      { email: 'someone@example.test', callbackURL: '/.//evil.example/x' },
      'callbackURL',
    ],
  ])('POST %s refuses %j', async (path, body, field) => {
    const response = await new Session(t.server).request('POST', `/api/auth${path}`, body);
    expect(response.status).toBe(403);
    const answer = (await response.json()) as { message: string };
    expect(answer.message.startsWith(`${field}: `)).toBe(true);
  });

  it('GET /reset-password/:token refuses an off-app callbackURL', async () => {
    const response = await fetch(
      `${t.server.url}/api/auth/reset-password/bogus?callbackURL=${encodeURIComponent('/.//evil.example/x')}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(403);
  });

  it('keeps the app’s own targets working', async () => {
    const bogus = await fetch(
      `${t.server.url}/api/auth/reset-password/bogus?callbackURL=${encodeURIComponent('/reset-password?from=mail')}`,
      { redirect: 'manual' },
    );
    expect(bogus.status).toBe(302);
    expect(bogus.headers.get('location')).toBe(
      `${t.server.url}/reset-password?from=mail&error=INVALID_TOKEN`,
    );

    // A sign-up with a callbackURL of the app is taken; its link leads to the page that
    // confirms it (confirm-email.ts), whatever the callbackURL said.
    const email = uniqueEmail();
    const session = new Session(t.server);
    const before = t.server.mail.mails.length;
    const signUp = await session.request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'redirect targets pw',
      name: 'R',
      callbackURL: `${t.server.url}/settings`,
    });
    expect(signUp.status).toBe(200);
    const mail = await t.server.mail.waitFor(email, 'Verify your email', before);
    expect(linkIn(mail)).toMatch(new RegExp(`^${t.server.url}/confirm-email\\?token=`));
    expect((await confirmSignUp(session, mail, 'redirect targets pw')).status).toBe(200);
    expect((await session.json('GET', '/api/me')).status).toBe(200);
  });
});
