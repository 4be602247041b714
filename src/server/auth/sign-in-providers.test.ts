import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPLAY_NAME_MAX } from '#shared/account.ts';
import { hasHiddenInLine } from '#shared/command-safe-text.ts';
import type { OidcIssuer } from '#server/testing/oidc-issuer.ts';
import {
  signInThroughIssuer,
  startGoogleTestServer,
  type GoogleTestServer,
} from '#server/testing/google-test-server.ts';
import { Session, type TestServer } from '#server/testing/test-server.ts';

let issuer: OidcIssuer;
let server: TestServer;
let google: GoogleTestServer;

beforeAll(async () => {
  google = await startGoogleTestServer({
    ALLOWED_EMAIL_DOMAINS: 'example.test',
    ALLOWED_EMAILS: 'contractor@outside.test',
  });
  ({ server, issuer } = google);
});
afterAll(async () => google?.close());

/** Starts a Google sign-in as the browser would; returns the provider URL it is sent to. */
async function startGoogleSignIn(session: Session): Promise<URL> {
  const response = await session.json<{ url: string }>('POST', '/api/auth/sign-in/social', {
    provider: 'google',
    callbackURL: '/',
    errorCallbackURL: '/sign-in',
  });
  expect(response.status).toBe(200);
  return new URL(response.body.url);
}

describe('provider sign-in', () => {
  it('lists the configured providers for the sign-in screen', async () => {
    expect((await new Session(server).json('GET', '/api/config')).body).toEqual({
      providers: [{ id: 'google', name: 'Google' }],
    });
  });

  it('sends the browser to the issuer found by discovery, with PKCE', async () => {
    const url = await startGoogleSignIn(new Session(server));
    expect(url.origin).toBe(issuer.url);
    expect(url.searchParams.get('client_id')).toBe('google-client');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
  });

  it.each([
    ['a forged state', (state: string) => `state=${state}x&code=bogus`],
    ['a forged code', (state: string) => `state=${state}&code=not-a-real-code`],
    ['no state at all', () => 'code=bogus'],
  ])('refuses a callback with %s and makes no session', async (_, query) => {
    const session = new Session(server);
    const state = (await startGoogleSignIn(session)).searchParams.get('state')!;
    const callback = await session.request('GET', `/api/auth/callback/google?${query(state)}`);
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get('location')!, server.url);
    expect(location.searchParams.get('error')).toBeTruthy();
    expect(session.cookies.has('cm.session_token')).toBe(false);
    expect((await session.json('GET', '/api/me')).status).toBe(401);
  });
});

describe('an ID token handed over directly', () => {
  // Sign-in goes through the provider's code flow only (state, PKCE, the code exchanged by the
  // server): a still-valid ID token for this client, from wherever it was taken, is no sign-in.
  it('signs nobody in and links nothing, with or without its nonce', async () => {
    const email = 'handed@example.test';
    for (const nonce of [undefined, 'n-0S6_WzA2Mj']) {
      const token = issuer.idToken('google-client', email, nonce);
      const session = new Session(server);
      const answer = await session.json<{ code?: string }>('POST', '/api/auth/sign-in/social', {
        provider: 'google',
        idToken: { token, ...(nonce ? { nonce } : {}) },
      });
      expect({ nonce, status: answer.status }).toEqual({ nonce, status: 400 });
      expect(answer.body.code).toBe('ID_TOKEN_SIGN_IN_OFF');
      expect(session.cookies.has('cm.session_token')).toBe(false);
    }
    const signedIn = (await signInThroughIssuer(server, issuer, 'linker@example.test')).session;
    const link = await signedIn.json('POST', '/api/auth/link-social', {
      provider: 'google',
      idToken: { token: issuer.idToken('google-client', 'linker@example.test') },
    });
    expect(link.status).toBe(400);
    const users = await server.app.parts.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(users).toEqual([]);
  });
});

describe('the provider’s tokens', () => {
  it('stay on the server: no route hands them to a page script', async () => {
    const { session, callback } = await signInThroughIssuer(server, issuer, 'tokens@example.test');
    expect(callback.status).toBe(302);
    const accounts = await session.json<{ accountId: string; providerId: string }[]>(
      'GET',
      '/api/auth/list-accounts',
    );
    const google = accounts.body.find((account) => account.providerId === 'google');
    expect(google).toBeDefined();
    for (const route of ['get-access-token', 'refresh-token', 'account-info']) {
      const answer = await session.request('POST', `/api/auth/${route}`, {
        providerId: 'google',
        accountId: google!.accountId,
      });
      const body = await answer.text();
      expect({ route, status: answer.status }).toEqual({ route, status: 404 });
      expect(body).not.toMatch(/accessToken|idToken|refreshToken/);
    }
  });
});

describe('the provider’s tokens, kept', () => {
  it('are none: neither the first sign-in nor a later one stores a token', async () => {
    const email = 'kept@example.test';
    const stored = async () =>
      server.app.parts.db.kysely
        .selectFrom('account')
        .innerJoin('user', 'user.id', 'account.userId')
        .select([
          'account.accessToken',
          'account.refreshToken',
          'account.idToken',
          'account.accessTokenExpiresAt',
        ])
        .where('user.email', '=', email)
        .where('account.providerId', '=', 'google')
        .execute();
    const nothing = [
      { accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null },
    ];
    expect((await signInThroughIssuer(server, issuer, email)).callback.status).toBe(302);
    expect(await stored()).toEqual(nothing);
    // Signing in again updates the account Better Auth found, with that sign-in's tokens.
    expect((await signInThroughIssuer(server, issuer, email)).callback.status).toBe(302);
    expect(await stored()).toEqual(nothing);
  });
});

describe('a display name the provider sends', () => {
  it('is stored as one line within the cap, as the app’s own forms would take it', async () => {
    const email = 'mallory@example.test';
    // A newline and ESC would forge a line in an operator's terminal, U+202E reverse what
    // follows on every screen; and the profile has no cap of its own.
    const sent = `Mallory\u202Enimda\n\u001b[2JAdmin ${'x'.repeat(300)}`;
    issuer.accounts.set(email, { name: sent, emailVerified: true });
    const { session, callback } = await signInThroughIssuer(server, issuer, email);
    expect(callback.status).toBe(302);
    const me = await session.json<{ displayName: string }>('GET', '/api/me');
    expect(me.status).toBe(200);
    const name = me.body.displayName;
    expect(hasHiddenInLine(name)).toBe(false);
    expect(name).toHaveLength(DISPLAY_NAME_MAX);
    expect(name.startsWith('Mallory nimda  [2JAdmin xxx')).toBe(true);
  });

  it('keeps emoji as the forms do, and is cut between two of them, not inside one', async () => {
    for (const [email, sent, stored] of [
      ['emoji@example.test', 'Ada 👩‍💻 ❤️', 'Ada 👩‍💻 ❤️'],
      [
        'long@example.test',
        `${'x'.repeat(DISPLAY_NAME_MAX - 3)}👩‍💻`,
        'x'.repeat(DISPLAY_NAME_MAX - 3),
      ],
    ] as const) {
      issuer.accounts.set(email, { name: sent, emailVerified: true });
      const { session } = await signInThroughIssuer(server, issuer, email);
      expect((await session.json<{ displayName: string }>('GET', '/api/me')).body.displayName).toBe(
        stored,
      );
    }
  });
});

describe('signing out after a provider sign-in', () => {
  it('ends the app’s session only: the browser is not sent to the provider', async () => {
    const { session } = await signInThroughIssuer(server, issuer, 'leaving@example.test');
    const answer = await session.request('POST', '/api/auth/sign-out', {});
    const body = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('location')).toBeNull();
    expect(JSON.parse(body)).toEqual({ success: true });
    expect(body).not.toContain(issuer.url);
    expect((await session.json('GET', '/api/me')).status).toBe(401);
  });
});

describe('allowlists on email sign-up', () => {
  it('refuses an address outside the lists, with the reason, and stores nothing', async () => {
    const response = await new Session(server).json<{ message: string; code: string }>(
      'POST',
      '/api/auth/sign-up/email',
      { email: 'mallory@elsewhere.test', password: 'long enough pw', name: 'M' },
    );
    expect(response.status).toBe(403);
    expect(response.body.message).toMatch(/mallory@elsewhere.test is not allowed to sign in/);
    const users = await server.app.parts.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'mallory@elsewhere.test')
      .execute();
    expect(users).toHaveLength(0);
  });

  it('admits the allowed domain and the listed address', async () => {
    for (const email of ['new.staff@example.test', 'contractor@outside.test']) {
      const response = await new Session(server).request('POST', '/api/auth/sign-up/email', {
        email,
        password: 'long enough pw',
        name: 'Ok',
      });
      expect(response.status, email).toBe(200);
    }
  });
});

describe('a provider that posts its answer (response_mode=form_post)', () => {
  it('has the posted form turned into the callback, from the provider’s own site', async () => {
    const session = new Session(server);
    const state = (await startGoogleSignIn(session)).searchParams.get('state')!;
    const posted = await session.request(
      'POST',
      '/api/auth/callback/google',
      new URLSearchParams({ state, code: 'posted-code' }).toString(),
      {
        'content-type': 'application/x-www-form-urlencoded',
        origin: issuer.url,
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(posted.status).toBe(302);
    const location = new URL(posted.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/api/auth/callback/google');
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('code')).toBe('posted-code');
  });

  it('takes a form body nowhere else', async () => {
    const response = await new Session(server).request(
      'POST',
      '/api/auth/sign-in/email',
      'email=a%40example.test&password=whatever+password',
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: 'Unsupported Content-Type: send application/json',
    });
  });

  it('does not let a cross-site post through by spelling another route as a callback', async () => {
    // fetch would resolve the dot segments before sending; a raw request keeps them.
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/auth/callback/../sign-in/email',
          headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify({ email: 'a@example.test', password: 'whatever password' }));
    });
    expect(status).toBe(403);
  });
});
