import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_NOT_VERIFIED_BY_PROVIDER_CODE } from '#shared/api-error.ts';
import { fromBool } from '#server/db/codec.ts';
import {
  signInThroughIssuer,
  startGoogleTestServer,
  type GoogleTestServer,
} from '#server/testing/google-test-server.ts';
import type { OidcIssuer } from '#server/testing/oidc-issuer.ts';
import { followPasswordResetMail, Session, confirmSignUp } from '#server/testing/test-server.ts';
import type { TestServer } from '#server/testing/test-server.ts';

/**
 * Account pre-takeover through a provider: an attacker's provider account claims a colleague's
 * address without having verified it. The account it made was the colleague's the moment they
 * confirmed the address (after a password reset, say), with the attacker's provider account,
 * passkey and authenticator still on it. A provider that has not verified an address makes no
 * account now; one made before is stripped of all that when its owner confirms the address.
 */
let google: GoogleTestServer;
let server: TestServer;
let issuer: OidcIssuer;

beforeAll(async () => {
  google = await startGoogleTestServer({ ALLOWED_EMAIL_DOMAINS: 'example.test' });
  ({ server, issuer } = google);
});
afterAll(async () => google?.close());

const kysely = () => server.app.parts.db.kysely;
const bool = (value: boolean) => fromBool(value, server.app.parts.db.dialect);

async function userRow(email: string) {
  return kysely()
    .selectFrom('user')
    .select(['id', 'emailVerified', 'twoFactorEnabled'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** What is left on a person's account of every way to sign in. */
async function signInMethods(userId: string) {
  const db = kysely();
  const count = async (table: 'passkey' | 'twoFactor' | 'session') =>
    (await db.selectFrom(table).select('id').where('userId', '=', userId).execute()).length;
  const accounts = await db
    .selectFrom('account')
    .select('providerId')
    .where('userId', '=', userId)
    .orderBy('providerId')
    .execute();
  return {
    providers: accounts.map((a) => a.providerId),
    passkeys: await count('passkey'),
    authenticators: await count('twoFactor'),
    sessions: await count('session'),
  };
}

/**
 * The state an unverified provider sign-in left before the fix: the provider's account on an
 * unverified person, a session of theirs, a passkey and an authenticator they added with it.
 * Made through a verified sign-in whose person is then marked unverified.
 */
async function leftByUnverifiedProvider(email: string): Promise<{ id: string; session: Session }> {
  issuer.accounts.set(email, { name: 'Mallory', emailVerified: true });
  const { session } = await signInThroughIssuer(server, issuer, email);
  issuer.accounts.set(email, { name: 'Mallory', emailVerified: false });
  const { id } = (await userRow(email))!;
  const at = new Date().toISOString();
  await kysely()
    .updateTable('user')
    .set({ emailVerified: bool(false), twoFactorEnabled: bool(true) })
    .where('id', '=', id)
    .execute();
  await kysely()
    .insertInto('passkey')
    .values({
      id: `pk-${id}`,
      name: 'Mallory’s key',
      publicKey: 'AAAA',
      userId: id,
      credentialID: `cred-${id}`,
      counter: 0,
      deviceType: 'singleDevice',
      backedUp: bool(false),
      transports: null,
      createdAt: at,
      aaguid: null,
    })
    .execute();
  await kysely()
    .insertInto('twoFactor')
    .values({
      id: `tf-${id}`,
      secret: 'sealed',
      backupCodes: 'sealed',
      userId: id,
      verified: bool(true),
    })
    .execute();
  return { id, session };
}

describe('a provider that has not verified the address', () => {
  it('makes no account, and the sign-in screen is told why', async () => {
    const email = 'owner.one@example.test';
    issuer.accounts.set(email, { name: 'Mallory', emailVerified: false });
    const { session, callback } = await signInThroughIssuer(server, issuer, email);
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/sign-in');
    expect(location.searchParams.get('error')).toBe(EMAIL_NOT_VERIFIED_BY_PROVIDER_CODE);
    expect(session.cookies.has('cm.session_token')).toBe(false);
    expect(await userRow(email)).toBeUndefined();
  });
});

describe('an account such a sign-in made before', () => {
  it('ends its sessions on Better Auth’s routes: nothing is added to it', async () => {
    const email = 'owner.two@example.test';
    const { id, session } = await leftByUnverifiedProvider(email);
    const rename = await session.json('POST', '/api/auth/update-user', { name: 'Owner' });
    expect(rename.status).toBe(401);
    expect((await signInMethods(id)).sessions).toBe(0);
  });

  it('keeps only the password once its owner confirms the address', async () => {
    const email = 'owner.three@example.test';
    const { id } = await leftByUnverifiedProvider(email);
    // The owner's way in: a reset puts their password on the account, and signing in with it
    // mails the confirmation that asks for it.
    const owner = new Session(server);
    const link = new URL(
      (await followPasswordResetMail(server, owner, email)).headers.get('location')!,
      server.url,
    );
    const reset = await owner.request('POST', '/api/auth/reset-password', {
      token: link.searchParams.get('token'),
      newPassword: 'owner chose this',
    });
    expect(reset.status).toBe(200);
    const before = server.mail.mails.length;
    const signIn = await owner.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'owner chose this',
    });
    expect(signIn.status).toBe(403);
    const mail = await server.mail.waitFor(email, 'Verify your email', before);
    expect((await confirmSignUp(owner, mail, 'owner chose this')).status).toBe(200);

    expect(await userRow(email)).toMatchObject({ id });
    expect(await signInMethods(id)).toEqual({
      providers: ['credential'],
      passkeys: 0,
      authenticators: 0,
      sessions: 1,
    });
    expect((await userRow(email))!.twoFactorEnabled).toBe(bool(false));
    // The attacker's provider account is no longer on it, and theirs does not join it.
    const { session: attacker, callback } = await signInThroughIssuer(server, issuer, email);
    expect(new URL(callback.headers.get('location')!, server.url).searchParams.get('error')).toBe(
      'account_not_linked',
    );
    expect((await attacker.json('GET', '/api/me')).status).toBe(401);
  });

  it('is started over by its owner’s sign-up, and does not block an invitation', async () => {
    const signedUp = 'owner.four@example.test';
    const old = await leftByUnverifiedProvider(signedUp);
    const signUp = await new Session(server).request('POST', '/api/auth/sign-up/email', {
      email: signedUp,
      password: 'owner chose this',
      name: 'Owner',
      callbackURL: '/',
    });
    expect(signUp.status).toBe(200);
    const made = await userRow(signedUp);
    expect(made?.id).not.toBe(old.id);
    expect(await signInMethods(made!.id)).toMatchObject({ providers: ['credential'], passkeys: 0 });

    const invited = 'owner.five@example.test';
    await leftByUnverifiedProvider(invited);
    const admin = await adminSession();
    const invitation = await admin.json('POST', '/api/people/invitations', {
      email: invited,
      role: 'viewer',
      tags: null,
    });
    expect(invitation.status).toBe(201);
    expect(await userRow(invited)).toBeUndefined();
  });
});

let admin: Session | undefined;
async function adminSession(): Promise<Session> {
  if (admin) return admin;
  const email = 'admin@example.test';
  issuer.accounts.set(email, { name: 'Admin', emailVerified: true });
  const { session } = await signInThroughIssuer(server, issuer, email);
  await kysely().updateTable('user').set({ role: 'admin' }).where('email', '=', email).execute();
  admin = session;
  return session;
}
