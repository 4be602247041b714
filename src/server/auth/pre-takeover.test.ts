import { describe, expect, it } from 'vitest';
import { linkIn } from '#server/testing/mail-catcher.ts';
import { Session, confirmSignUp } from '#server/testing/test-server.ts';
import { CONFIRM_EMAIL_WRONG_PASSWORD } from '#shared/account.ts';
import { toBool } from '#server/db/codec.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * Account pre-takeover, replayed as the outside review did it: an attacker signs up a
 * colleague's not-yet-registered address with the attacker's password; the owner signs up
 * later with their own; the owner follows a link from their inbox. The account must end up with
 * the owner's password only, and the link the attacker's sign-up sent must not verify anyone.
 */

const t = serveThisFile({ staff: { admin: { name: 'Admin', role: 'admin' } } });

const EMAIL = 'new.hire@allowed.example';
const ATTACKER_PASSWORD = 'attacker chose this';
const OWNER_PASSWORD = 'owner chose this one';

async function signUp(session: Session, password: string, email = EMAIL) {
  return session.request('POST', '/api/auth/sign-up/email', {
    email,
    password,
    name: 'New Hire',
    callbackURL: '/',
  });
}

async function signIn(password: string, email = EMAIL) {
  const session = new Session(t.server);
  const response = await session.request('POST', '/api/auth/sign-in/email', {
    email,
    password,
  });
  return { status: response.status, session };
}

function signedIn(session: Session): boolean {
  return [...session.cookies.keys()].some((name) => name.includes('session_token'));
}

/**
 * The owner never signs up: a stranger signs up their address, and the owner opens the mail
 * they never asked for. Opening it must confirm nothing: the page asks for the password chosen
 * at sign-up, which the owner does not know, and tells them to sign up themselves.
 */
describe('a link the address’s owner never asked for', () => {
  it('confirms nothing when opened, nor without the password chosen at sign-up', async () => {
    const email = 'unasked.hire@allowed.example';
    const before = t.server.mail.mails.length;
    expect((await signUp(new Session(t.server), ATTACKER_PASSWORD, email)).status).toBe(200);
    const mail = await t.server.mail.waitFor(email, 'Verify your email', before);
    const token = new URL(linkIn(mail)).searchParams.get('token')!;

    // The link as it is, and Better Auth's own verification of its token, opened by the owner.
    const owner = new Session(t.server);
    await owner.request('GET', linkIn(mail));
    await owner.request(
      'GET',
      `/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=%2F`,
    );
    expect(signedIn(owner)).toBe(false);
    expect((await signIn(ATTACKER_PASSWORD, email)).status).toBe(403);

    // The page posts what the owner types: anything but the stranger's password is refused.
    const guessed = await confirmSignUp(owner, mail, 'what the owner would use');
    expect(guessed.status).toBe(401);
    expect(await guessed.json()).toEqual({
      code: 'NOT_THE_SIGN_UP_PASSWORD',
      message: CONFIRM_EMAIL_WRONG_PASSWORD,
    });
    expect(signedIn(owner)).toBe(false);
    const stored = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select('emailVerified')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(toBool(stored.emailVerified)).toBe(false);
    expect((await signIn(ATTACKER_PASSWORD, email)).status).toBe(403);

    // As the page says: the owner signs up, and only their password opens the account.
    const owners = new Session(t.server);
    const second = t.server.mail.mails.length;
    expect((await signUp(owners, OWNER_PASSWORD, email)).status).toBe(200);
    const ownersMail = await t.server.mail.waitFor(email, 'Verify your email', second);
    expect((await confirmSignUp(owners, ownersMail, OWNER_PASSWORD)).status).toBe(200);
    expect((await signIn(ATTACKER_PASSWORD, email)).status).toBe(401);
    expect((await signIn(OWNER_PASSWORD, email)).status).toBe(200);
  });
});

describe('a sign-up of an address someone else signed up first, not yet verified', () => {
  it('keeps only the last password set, and the earlier link verifies no one', async () => {
    const attacker = new Session(t.server);
    const owner = new Session(t.server);

    const first = t.server.mail.mails.length;
    expect((await signUp(attacker, ATTACKER_PASSWORD)).status).toBe(200);
    const attackersMail = await t.server.mail.waitFor(EMAIL, 'Verify your email', first);

    const second = t.server.mail.mails.length;
    expect((await signUp(owner, OWNER_PASSWORD)).status).toBe(200);
    const ownersMail = await t.server.mail.waitFor(EMAIL, 'Verify your email', second);

    // The link the attacker's sign-up sent, followed by the owner: it must not sign in, with
    // the attacker's password either.
    const stale = await confirmSignUp(owner, attackersMail, ATTACKER_PASSWORD);
    expect(stale.status).toBe(400);
    expect(((await stale.json()) as { code?: string }).code).toBe('INVALID_TOKEN');
    expect(signedIn(owner)).toBe(false);

    // The owner's own link, with the owner's password, verifies and signs in.
    expect((await confirmSignUp(owner, ownersMail, OWNER_PASSWORD)).status).toBe(200);
    expect((await owner.json('GET', '/api/me')).status).toBe(200);

    expect((await signIn(ATTACKER_PASSWORD)).status).toBe(401);
    const ownerSignIn = await signIn(OWNER_PASSWORD);
    expect(ownerSignIn.status).toBe(200);
    expect((await ownerSignIn.session.json('GET', '/api/me')).status).toBe(200);

    const users = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select(['id', 'emailVerified'])
      .where('email', '=', EMAIL)
      .execute();
    expect(users).toHaveLength(1);

    // Once verified, a sign-up of the address answers as for a new one and changes nothing.
    expect((await signUp(new Session(t.server), ATTACKER_PASSWORD)).status).toBe(200);
    expect((await signIn(ATTACKER_PASSWORD)).status).toBe(401);
    expect((await signIn(OWNER_PASSWORD)).status).toBe(200);
  });
});

describe('an invitation of an address someone else signed up first, not yet verified', () => {
  it('removes that pending account at once, so its earlier link verifies no one', async () => {
    const email = 'invited.hire@allowed.example';
    const outsider = new Session(t.server);
    const first = t.server.mail.mails.length;
    expect((await signUp(outsider, ATTACKER_PASSWORD, email)).status).toBe(200);
    const outsidersMail = await t.server.mail.waitFor(email, 'Verify your email', first);
    const { kysely } = t.server.app.parts.db;
    const pending = await kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // A password reset asked for the address: a verification row naming the pending account.
    expect(
      (
        await new Session(t.server).request('POST', '/api/auth/request-password-reset', {
          email,
          redirectTo: '/reset-password',
        })
      ).status,
    ).toBe(200);
    await t.server.mail.waitFor(email, 'Reset your Clients Manager password', first);
    const verificationRows = () =>
      kysely.selectFrom('verification').select('id').where('value', '=', pending.id).execute();
    expect(await verificationRows()).toHaveLength(1);

    const invited = await t.staff.admin.json('POST', '/api/people/invitations', {
      email,
      role: 'editor',
      tags: null,
    });
    expect(invited.status).toBe(201);

    // Before the invitee signs up through the invitation, the colleague follows the first mail,
    // which looks like ours: it must verify nothing and sign nobody in.
    const colleague = new Session(t.server);
    const followed = await confirmSignUp(colleague, outsidersMail, ATTACKER_PASSWORD);
    // The outsider's password must not sign in as the colleague.
    expect((await signIn(ATTACKER_PASSWORD, email)).status).toBe(401);
    expect(followed.status).toBe(400);
    expect(signedIn(colleague)).toBe(false);

    // Nothing of the pending account is left; the invitation is.
    expect(
      await kysely.selectFrom('user').select('id').where('email', '=', email).execute(),
    ).toEqual([]);
    for (const table of ['account', 'session'] as const) {
      const rows = await kysely
        .selectFrom(table)
        .select('id')
        .where('userId', '=', pending.id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    expect(await verificationRows()).toEqual([]);
    const invitation = await kysely
      .selectFrom('invitation')
      .select('acceptedAt')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(invitation.acceptedAt).toBeNull();

    // The outsider signs the address up again: refused while the invitation is pending, so no
    // second mail can carry a link that verifies their password as the colleague's.
    const again = await signUp(outsider, ATTACKER_PASSWORD, email);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { code?: string }).code).toBe('INVITATION_REQUIRED');
    expect(
      await kysely.selectFrom('user').select('id').where('email', '=', email).execute(),
    ).toEqual([]);
  });
});
