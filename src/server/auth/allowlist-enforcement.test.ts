import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcIssuer } from '#server/testing/oidc-issuer.ts';
import { signInThroughIssuer } from '#server/testing/google-test-server.ts';
import { testDatabaseEnv } from '#server/testing/test-database.ts';
import {
  Session,
  serverPort,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { EMAIL_NOT_ALLOWED_CODE } from '#shared/api-error.ts';
import { notAllowedMessage } from './allowlist.ts';

const PASSWORD = 'returning staff pw';
const STAYS = 'stays@example.test';
/** Allowed by ALLOWED_EMAIL_DOMAINS at sign-up; that domain is dropped later. */
const BY_DOMAIN = 'ada@partner.test';
/** Allowed by ALLOWED_EMAILS at sign-up; that address is dropped later. */
const BY_ADDRESS = 'contractor@outside.test';
/** Signs up through Google while partner.test is allowed. */
const BY_PROVIDER = 'grace@partner.test';

let database: Awaited<ReturnType<typeof testDatabaseEnv>>;
let dataDir: string;
let issuer: OidcIssuer;
let server: TestServer;
/** The cookies of the sessions made while the wider lists were in force. */
const earlierCookies = new Map<string, Map<string, string>>();

/** The user's sessions in the database. */
async function sessionRows(email: string): Promise<number> {
  const rows = await server.app.parts.db.kysely
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .select('session.id')
    .where('user.email', '=', email)
    .execute();
  return rows.length;
}

beforeAll(async () => {
  // One installation (the data folder, and the PostgreSQL database when that is under test),
  // run by two servers one after the other: the second with narrower lists.
  database = await testDatabaseEnv();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-allowlist-'));
  const ports = [await serverPort(), await serverPort()];
  issuer = await new OidcIssuer().start(
    ports.map((port, i) => ({
      clientId: `google-client-${i}`,
      clientSecret: 'google-secret',
      redirectUri: `http://127.0.0.1:${port}/api/auth/callback/google`,
    })),
  );
  const google = (i: number) => ({
    GOOGLE_CLIENT_ID: `google-client-${i}`,
    GOOGLE_CLIENT_SECRET: 'google-secret',
    GOOGLE_ISSUER: issuer.url,
  });

  const before = await startTestServer(
    {
      ...database.env,
      ...google(0),
      ALLOWED_EMAIL_DOMAINS: 'example.test,partner.test',
      ALLOWED_EMAILS: BY_ADDRESS,
    },
    { dataDir, port: ports[0] },
  );
  try {
    for (const email of [STAYS, BY_DOMAIN, BY_ADDRESS]) {
      const session = await signUpVerified(before, { email, password: PASSWORD });
      expect((await session.json('GET', '/api/me')).status).toBe(200);
      earlierCookies.set(email, new Map(session.cookies));
    }
    const { session, callback } = await signInThroughIssuer(before, issuer, BY_PROVIDER);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/');
    expect((await session.json<{ email: string }>('GET', '/api/me')).body.email).toBe(BY_PROVIDER);
  } finally {
    await before.close();
  }

  server = await startTestServer(
    {
      ...database.env,
      ...google(1),
      ALLOWED_EMAIL_DOMAINS: 'example.test',
      ALLOWED_EMAILS: 'other@outside.test',
    },
    { dataDir, port: ports[1] },
  );
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
  await database?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('allowlists on returning sign-ins, after the lists were narrowed', () => {
  it('still admits a user the new lists allow, on the same data', async () => {
    const session = new Session(server);
    const signIn = await session.request('POST', '/api/auth/sign-in/email', {
      email: STAYS,
      password: PASSWORD,
    });
    expect(signIn.status).toBe(200);
    expect(session.cookies.has('cm.session_token')).toBe(true);
    expect((await session.json<{ email: string }>('GET', '/api/me')).body.email).toBe(STAYS);
  });

  it.each([
    ['ALLOWED_EMAIL_DOMAINS', BY_DOMAIN],
    ['ALLOWED_EMAILS', BY_ADDRESS],
  ])(
    'refuses the email sign-in of a user %s no longer allows, says why, and makes no session',
    async (_, email) => {
      // Their session from before is still in the database: they did sign in then.
      const sessionsBefore = await sessionRows(email);
      expect(sessionsBefore).toBe(1);
      const session = new Session(server);
      const signIn = await session.request('POST', '/api/auth/sign-in/email', {
        email,
        password: PASSWORD,
      });
      expect(signIn.status).toBe(403);
      const body = (await signIn.json()) as { code?: string; message?: string };
      expect(body.code).toBe(EMAIL_NOT_ALLOWED_CODE);
      expect(body.message).toBe(notAllowedMessage(email));
      expect(body.message).toContain(`${email} is not allowed to sign in to Clients Manager`);
      expect(signIn.headers.getSetCookie().filter((c) => c.includes('session_token'))).toEqual([]);
      expect(session.cookies.has('cm.session_token')).toBe(false);
      expect((await session.json('GET', '/api/me')).status).toBe(401);
      expect(await sessionRows(email)).toBe(sessionsBefore);
    },
  );

  it('ends the sessions of people the lists no longer allow, at their next request', async () => {
    const earlier = (email: string) => {
      const session = new Session(server);
      for (const [name, value] of earlierCookies.get(email)!) session.cookies.set(name, value);
      return session;
    };
    expect((await earlier(STAYS).json('GET', '/api/me')).status).toBe(200);
    for (const email of [BY_DOMAIN, BY_ADDRESS]) {
      for (const url of ['/api/me', '/api/clients', '/api/events']) {
        const answer = await earlier(email).json<{ error: string; code: string }>('GET', url);
        expect(answer.status, `${email} ${url}`).toBe(403);
        expect(answer.body).toEqual({
          error: notAllowedMessage(email),
          code: EMAIL_NOT_ALLOWED_CODE,
        });
      }
    }
  });

  it("ends, rather than serves, their sessions on Better Auth's own account routes", async () => {
    const earlier = new Session(server);
    for (const [name, value] of earlierCookies.get(BY_ADDRESS)!) earlier.cookies.set(name, value);
    expect(await sessionRows(BY_ADDRESS)).toBe(1);
    const rename = await earlier.json('POST', '/api/auth/update-user', { name: 'Left out' });
    expect(rename.status).toBe(401);
    expect(await sessionRows(BY_ADDRESS)).toBe(0);
    const password = await earlier.json('POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a new pass phrase',
    });
    expect(password.status).toBe(401);
    expect((await earlier.json('GET', '/api/auth/get-session')).body).toBeNull();
    const stored = await server.app.parts.db.kysely
      .selectFrom('user')
      .select('name')
      .where('email', '=', BY_ADDRESS)
      .executeTakeFirstOrThrow();
    expect(stored.name).not.toBe('Left out');
  });

  it('refuses the Google sign-in of a returning user the lists no longer allow, with the reason', async () => {
    const sessionsBefore = await sessionRows(BY_PROVIDER);
    expect(sessionsBefore).toBe(1);
    const { session, callback } = await signInThroughIssuer(server, issuer, BY_PROVIDER);
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/sign-in');
    expect(location.searchParams.get('error')).toBe(EMAIL_NOT_ALLOWED_CODE);
    expect(callback.headers.getSetCookie().filter((c) => c.includes('session_token'))).toEqual([]);
    expect(session.cookies.has('cm.session_token')).toBe(false);
    expect((await session.json('GET', '/api/me')).status).toBe(401);
    expect(await sessionRows(BY_PROVIDER)).toBe(sessionsBefore);
  });
});
