import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveThisFile } from '#server/testing/file-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import {
  ageSignIns,
  enrolTotp,
  signInWithPassword,
  SoftwarePasskey,
  type Enrolled,
} from '#server/testing/second-factor-steps.ts';
import {
  followPasswordResetMail,
  Session,
  signUpVerified,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '#server/testing/test-server.ts';
import { CODES_BEING_SET_UP_CODE } from './one-set-of-codes.ts';
import {
  PASSKEY_NEEDS_RECENT_SIGN_IN,
  PASSKEY_NOT_USER_VERIFIED_MESSAGE,
} from '#shared/second-factors.ts';
import { fromBool } from '#server/db/codec.ts';
import type { Me } from '#shared/account.ts';

const PASSWORD = 'correct horse battery';

/** What the server logged, as JSON lines: an unexpected failure is logged here, once. */
const logLines: string[] = [];
const t = serveThisFile({
  env: { LOG_LEVEL: 'error' },
  start: { logStream: { write: (line) => logLines.push(line) } },
  staff: { admin: { name: 'Admin', role: 'admin' } },
});
// Every test signs in several times from 127.0.0.1; each starts with fresh counters.
beforeEach(async () => {
  await t.server.app.parts.db.kysely.deleteFrom('rateLimit').execute();
});

/** A verified person with authenticator codes on, signed in. */
async function enrolledPerson(server: TestServer = t.server) {
  const email = uniqueEmail('factor');
  const session = await signUpVerified(server, { email, password: PASSWORD });
  const enrolled: Enrolled = await enrolTotp(session, PASSWORD);
  return { email, session, ...enrolled };
}

/** The code step of a sign-in: posts a code with the pending sign-in's cookie. */
function verify(session: Session, kind: 'totp' | 'backup-code', code: string, trustDevice = false) {
  return session.json<{ code?: string; message?: string }>(
    'POST',
    `/api/auth/two-factor/verify-${kind}`,
    { code, trustDevice },
  );
}

describe('authenticator codes', () => {
  it('are turned on with the password and a first code, then asked at every sign-in', async () => {
    const { email, app, session: enrolledIn } = await enrolledPerson();
    expect((await enrolledIn.json<Me>('GET', '/api/me')).body.twoFactorEnabled).toBe(true);

    const { session, body } = await signInWithPassword(t.server, email, PASSWORD);
    expect(body.twoFactorRedirect).toBe(true);
    // No session until the code.
    expect((await session.json('GET', '/api/me')).status).toBe(401);

    const wrong = await verify(session, 'totp', wrongCode(app.totp.generate()));
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('That code is not right');

    expect((await verify(session, 'totp', await app.nextCode())).status).toBe(200);
    expect((await session.json('GET', '/api/me')).status).toBe(200);
  });

  it('accepts each code once: a code used before is refused, at turning on and at sign-in', async () => {
    const { email, app } = await enrolledPerson();
    const { session } = await signInWithPassword(t.server, email, PASSWORD);
    // The code that turned them on, read over the person's shoulder.
    const replayed = await verify(session, 'totp', app.usedCode);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({
      code: 'SECOND_FACTOR_CODE_USED',
      message: 'That code has been used already. Wait for the next code in your authenticator app.',
    });
    expect((await session.json('GET', '/api/me')).status).toBe(401);

    expect((await verify(session, 'totp', await app.nextCode())).status).toBe(200);
    // The code of that sign-in, in another browser.
    const elsewhere = await signInWithPassword(t.server, email, PASSWORD);
    const again = await verify(elsewhere.session, 'totp', app.usedCode);
    expect(again.body.code).toBe('SECOND_FACTOR_CODE_USED');
    expect((await elsewhere.session.json('GET', '/api/me')).status).toBe(401);
  });

  it('lets one of two sign-ins sending the same code at once through, not both', async () => {
    const { email, app } = await enrolledPerson();
    const browsers = [
      await signInWithPassword(t.server, email, PASSWORD),
      await signInWithPassword(t.server, email, PASSWORD),
    ];
    const code = await app.nextCode();
    const answers = await Promise.all(browsers.map(({ session }) => verify(session, 'totp', code)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    expect(answers.find((a) => a.status === 401)?.body.code).toBe('SECOND_FACTOR_CODE_USED');
    const signedIn = await Promise.all(
      browsers.map(async ({ session }) => (await session.json('GET', '/api/me')).status),
    );
    expect(signedIn.sort()).toEqual([200, 401]);
  });

  it('leaves a right code unspent while the person’s codes are locked', async () => {
    const { email, app, session: enrolledIn } = await enrolledPerson();
    const { id } = (await enrolledIn.json<Me>('GET', '/api/me')).body;
    const lock = (until: string | null) =>
      t.server.app.parts.db.kysely
        .updateTable('twoFactor')
        .set({ lockedUntil: until })
        .where('userId', '=', id)
        .execute();
    const { session } = await signInWithPassword(t.server, email, PASSWORD);
    await lock(new Date(Date.now() + 60_000).toISOString());
    const code = await app.nextCode();
    const locked = await verify(session, 'totp', code);
    expect(locked.status).toBe(429);
    expect(locked.body.code).not.toBe('SECOND_FACTOR_CODE_USED');
    await lock(null);
    expect((await verify(session, 'totp', code)).status).toBe(200);
  });

  it('refuses turning on without the right password', async () => {
    const session = await signUpVerified(t.server, { password: PASSWORD });
    const response = await session.json('POST', '/api/auth/two-factor/enable', {
      password: 'not the password',
    });
    expect(response.status).toBe(400);
  });

  it('hands out the secret and the backup codes with Cache-Control: no-store', async () => {
    const session = await signUpVerified(t.server, { password: PASSWORD });
    const enable = await session.request('POST', '/api/auth/two-factor/enable', {
      password: PASSWORD,
    });
    expect(enable.status).toBe(200);
    expect(((await enable.json()) as { backupCodes: string[] }).backupCodes).toHaveLength(10);
    expect(enable.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps one set of codes for a person who asks to turn them on several times at once', async () => {
    const session = await signUpVerified(t.server, { password: PASSWORD });
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() =>
        session.json<{ code?: string }>('POST', '/api/auth/two-factor/enable', {
          password: PASSWORD,
        }),
      ),
    );
    const rows = await t.server.app.parts.db.kysely
      .selectFrom('twoFactor')
      .select('id')
      .where('userId', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
    // Whether they raced is up to the scheduler; one that lost the race says so, none fails.
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost).toMatchObject({ status: 409, body: { code: CODES_BEING_SET_UP_CODE } });
    }
    // The person goes on from there: the row left is the one turning codes on completes.
    await enrolTotp(session, PASSWORD);
    expect((await session.json<Me>('GET', '/api/me')).body.twoFactorEnabled).toBe(true);
  });

  it('says the same for a wrong backup code as for a wrong authenticator code', async () => {
    const { email, app } = await enrolledPerson();
    const { session } = await signInWithPassword(t.server, email, PASSWORD);
    const wrongTotp = await verify(session, 'totp', wrongCode(app.totp.generate()));
    const wrongBackup = await verify(session, 'backup-code', 'AAAAA-BBBBB');
    expect(wrongBackup.status).toBe(wrongTotp.status);
    expect(wrongBackup.body).toEqual(wrongTotp.body);
  });

  it('accepts each of the ten backup codes once', async () => {
    const { email, backupCodes } = await enrolledPerson();
    expect(backupCodes).toHaveLength(10);
    const [code] = backupCodes;

    const first = await signInWithPassword(t.server, email, PASSWORD);
    expect((await verify(first.session, 'backup-code', code!)).status).toBe(200);
    expect((await first.session.json('GET', '/api/me')).status).toBe(200);

    const again = await signInWithPassword(t.server, email, PASSWORD);
    const reused = await verify(again.session, 'backup-code', code!);
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('That code is not right');
    expect((await again.session.json('GET', '/api/me')).status).toBe(401);
  });

  it('skips the code on a device trusted at the last sign-in, and only there', async () => {
    const { email, app } = await enrolledPerson();
    const first = await signInWithPassword(t.server, email, PASSWORD);
    expect((await verify(first.session, 'totp', await app.nextCode(), true)).status).toBe(200);
    const trusted = first.session.cookies.get('cm.trust_device');
    expect(trusted).toBeTruthy();

    const device = new Session(t.server);
    device.cookies.set('cm.trust_device', trusted!);
    const next = await signInWithPassword(t.server, email, PASSWORD, device);
    expect(next.body.twoFactorRedirect).toBeUndefined();
    expect((await device.json('GET', '/api/me')).status).toBe(200);

    const elsewhere = await signInWithPassword(t.server, email, PASSWORD);
    expect(elsewhere.body.twoFactorRedirect).toBe(true);
  });

  it('limits wrong codes from one address like password sign-ins: 429', async () => {
    const limit = t.server.config.authRateLimitPerMinute;
    // Better Auth also ends a pending sign-in after five wrong codes and locks a person's codes
    // after ten in a row: spread over people and sign-ins, only the address limit is reached.
    const pending = [];
    for (let i = 0; i <= Math.ceil(limit / 5); i++) {
      const { email, app, backupCodes } = await enrolledPerson();
      pending.push({ app, backupCodes, ...(await signInWithPassword(t.server, email, PASSWORD)) });
    }
    await t.server.app.parts.db.kysely.deleteFrom('rateLimit').execute();
    const statuses: number[] = [];
    for (const { session, app } of pending) {
      for (let i = 0; i < 5 && statuses.length < limit; i++) {
        statuses.push((await verify(session, 'totp', wrongCode(app.totp.generate()))).status);
      }
    }
    expect(statuses).toEqual(Array<number>(limit).fill(401));
    const last = pending.at(-1)!;
    const limited = await verify(last.session, 'totp', await last.app.nextCode());
    expect(limited.status).toBe(429);
    // The backup-code route counts on its own, as sign-in and sign-up do.
    expect((await verify(last.session, 'backup-code', last.backupCodes[0]!)).status).toBe(200);
  });
});

/** Resets the person's password through the mailed link, as someone who forgot it would. */
async function resetByMail(email: string, newPassword: string): Promise<void> {
  const anon = new Session(t.server);
  const landing = await followPasswordResetMail(t.server, anon, email);
  const token = new URL(landing.headers.get('location')!, t.server.url).searchParams.get('token');
  const reset = await anon.request('POST', '/api/auth/reset-password', { newPassword, token });
  expect(reset.status).toBe(200);
}

/** A browser that signed in choosing 'trust this device'; it keeps its cookies as one does. */
async function trustedDevice(email: string, app: Enrolled['app']): Promise<Session> {
  const { session } = await signInWithPassword(t.server, email, PASSWORD);
  expect((await verify(session, 'totp', await app.nextCode(), true)).status).toBe(200);
  expect(session.cookies.get('cm.trust_device')).toBeTruthy();
  return session;
}

/**
 * Whether a password sign-in in this browser is asked for a code. A sign-in that uses the trust
 * replaces its cookie and record, which the browser keeps for the next.
 */
async function askedForCode(email: string, device: Session): Promise<boolean> {
  const { body } = await signInWithPassword(t.server, email, PASSWORD, device);
  return body.twoFactorRedirect === true;
}

/** How many browsers the server still trusts for this person. */
async function trustRecords(userId: string): Promise<number> {
  const rows = await t.server.app.parts.db.kysely
    .selectFrom('verification')
    .select('id')
    .where('identifier', 'like', 'trust-device-%')
    .where('value', '=', userId)
    .execute();
  return rows.length;
}

describe('trusted devices', () => {
  it('are all forgotten when the person turns codes off, not only the browser doing it', async () => {
    const { email, app, session } = await enrolledPerson();
    const device = await trustedDevice(email, app);
    expect(await askedForCode(email, device)).toBe(false);
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    expect(
      (await session.json('POST', '/api/auth/two-factor/disable', { password: PASSWORD })).status,
    ).toBe(200);
    expect(await trustRecords(id)).toBe(0);
    await enrolTotp(session, PASSWORD);
    expect(await askedForCode(email, device)).toBe(true);
  });

  it('are all forgotten when the person turns codes on, trust left from before included', async () => {
    const { email, app, session } = await enrolledPerson();
    const device = await trustedDevice(email, app);
    expect(await askedForCode(email, device)).toBe(false);
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    // Codes turned off the way that left other browsers' trust behind.
    const { kysely } = t.server.app.parts.db;
    await kysely.deleteFrom('twoFactor').where('userId', '=', id).execute();
    await kysely
      .updateTable('user')
      .set({ twoFactorEnabled: fromBool(false, t.server.app.parts.db.dialect) })
      .where('id', '=', id)
      .execute();
    await enrolTotp(session, PASSWORD);
    expect(await askedForCode(email, device)).toBe(true);
  });

  it('are all forgotten when an administrator resets the person’s second factor', async () => {
    const { email, app, session } = await enrolledPerson();
    const device = await trustedDevice(email, app);
    expect(await askedForCode(email, device)).toBe(false);
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    const reset = await t.staff.admin.json('POST', `/api/people/${id}/reset-second-factor`, {});
    expect(reset.status).toBe(200);
    await enrolTotp(session, PASSWORD);
    expect(await askedForCode(email, device)).toBe(true);
  });

  // A stolen laptop keeps its trust cookie and often the saved password: whatever ends the
  // person's other sessions must also make that browser ask for a code again.
  it.each([
    [
      'an administrator signs the person out everywhere',
      (_session: Session, id: string) =>
        t.staff.admin.json('POST', `/api/people/${id}/sign-out`, {}),
    ],
    [
      'the person signs out their other devices',
      (session: Session) => session.json('POST', '/api/me/sessions/revoke-others', {}),
    ],
  ])('are all forgotten when %s', async (_when, signOut) => {
    const { email, app, session } = await enrolledPerson();
    const device = await trustedDevice(email, app);
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    expect((await signOut(session, id)).status).toBe(200);
    expect(await trustRecords(id)).toBe(0);
    expect(await askedForCode(email, device)).toBe(true);
  });

  it('are all forgotten when the person changes their password', async () => {
    const { email, app, session } = await enrolledPerson();
    const device = await trustedDevice(email, app);
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    const changed = await session.json('POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(changed.status).toBe(200);
    expect(await trustRecords(id)).toBe(0);
    const again = await signInWithPassword(t.server, email, 'a brand new password', device);
    expect(again.body.twoFactorRedirect).toBe(true);
  });

  it('are all forgotten when the person resets their password', async () => {
    const { email, app, session } = await enrolledPerson();
    const device = await trustedDevice(email, app);
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    await resetByMail(email, 'a brand new password');
    expect(await trustRecords(id)).toBe(0);
    const again = await signInWithPassword(t.server, email, 'a brand new password', device);
    expect(again.body.twoFactorRedirect).toBe(true);
  });
});

describe('a sign-in waiting for its code', () => {
  it('is forgotten when the person resets their password', async () => {
    const { email, app } = await enrolledPerson();
    // Someone with the old password stops at the code step.
    const { session: waiting, body } = await signInWithPassword(t.server, email, PASSWORD);
    expect(body.twoFactorRedirect).toBe(true);

    await resetByMail(email, 'a brand new password');

    expect((await verify(waiting, 'totp', await app.nextCode())).status).toBe(401);
    expect((await waiting.json('GET', '/api/me')).status).toBe(401);
  });

  it('is forgotten when the person changes their password from another session', async () => {
    const { email, app, session } = await enrolledPerson();
    // Someone with the old password stops at the code step.
    const { session: waiting, body } = await signInWithPassword(t.server, email, PASSWORD);
    expect(body.twoFactorRedirect).toBe(true);

    // As Settings sends it; the pending sign-in has no session for revokeOtherSessions to end.
    const changed = await session.json('POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);

    expect((await verify(waiting, 'totp', await app.nextCode())).status).toBe(401);
    expect((await waiting.json('GET', '/api/me')).status).toBe(401);
  });

  it('is forgotten by a password change that keeps the other sessions', async () => {
    const { email, app, session } = await enrolledPerson();
    const { session: waiting } = await signInWithPassword(t.server, email, PASSWORD);
    const changed = await session.json('POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    });
    expect(changed.status).toBe(200);
    expect((await verify(waiting, 'totp', await app.nextCode())).status).toBe(401);
  });

  it('is kept when a password change is refused', async () => {
    const { email, app, session } = await enrolledPerson();
    const { session: waiting } = await signInWithPassword(t.server, email, PASSWORD);
    const refused = await session.json('POST', '/api/auth/change-password', {
      currentPassword: 'not the password',
      newPassword: 'a brand new password',
      revokeOtherSessions: true,
    });
    expect(refused.status).toBe(400);
    expect((await verify(waiting, 'totp', await app.nextCode())).status).toBe(200);
  });
});

describe('the password, to a signed-in session', () => {
  // It unlocks the authenticator's secret and new backup codes: every route that checks it is
  // limited as a sign-in is, and Better Auth's bare check, which the web app never uses and
  // which had only the general limit of 100 a minute, is off.
  it('is checked by no route of its own', async () => {
    const { session } = await enrolledPerson();
    const answer = await session.request('POST', '/api/auth/verify-password', {
      password: PASSWORD,
    });
    expect(answer.status).toBe(404);
  });
});

describe('turning codes off', () => {
  it('needs the password, and sign-in asks for no code after', async () => {
    const { email, session } = await enrolledPerson();
    expect(
      (await session.json('POST', '/api/auth/two-factor/disable', { password: 'wrong one' }))
        .status,
    ).toBe(400);
    expect(
      (await session.json('POST', '/api/auth/two-factor/disable', { password: PASSWORD })).status,
    ).toBe(200);
    const { body } = await signInWithPassword(t.server, email, PASSWORD);
    expect(body.twoFactorRedirect).toBeUndefined();
  });
});

describe('passkeys', () => {
  it('sign a person in, and leave the password working too unless REQUIRE_2FA', async () => {
    const email = uniqueEmail('passkey');
    const session = await signUpVerified(t.server, { email, password: PASSWORD });
    const passkey = new SoftwarePasskey();
    await passkey.register(
      t.server.app.parts.db,
      (await session.json<Me>('GET', '/api/me')).body.id,
    );
    const signedIn = await passkey.signIn(t.server);
    expect(signedIn.status).toBe(200);
    expect((await signedIn.session.json('GET', '/api/clients')).status).toBe(200);
    const { session: withPassword } = await signInWithPassword(t.server, email, PASSWORD);
    expect((await withPassword.json('GET', '/api/clients')).status).toBe(200);
  });

  // A passkey stands for the password and the code together only when the device checked it
  // was its person (a PIN, fingerprint or face), not merely that someone touched it.
  it('sign in only when the device checked it was its person', async () => {
    const session = await signUpVerified(t.server, { password: PASSWORD });
    const passkey = new SoftwarePasskey();
    await passkey.register(
      t.server.app.parts.db,
      (await session.json<Me>('GET', '/api/me')).body.id,
    );
    const touched = await passkey.signIn(t.server, { userVerified: false });
    expect(touched.status).toBe(401);
    expect(touched.body).toEqual({
      code: 'PASSKEY_NOT_USER_VERIFIED',
      message: PASSKEY_NOT_USER_VERIFIED_MESSAGE,
    });
    expect(touched.session.cookies.has('cm.session_token')).toBe(false);
    expect((await touched.session.json('GET', '/api/me')).status).toBe(401);
    expect((await passkey.signIn(t.server)).status).toBe(200);
  });
});

describe('adding a passkey', () => {
  // A passkey signs its device in without the password, and no sign-out or password reset
  // removes it: a session taken from an unlocked browser hours after its sign-in must not be
  // able to add one of its own.
  it('needs a sign-in from the last 10 minutes: an older session is refused, with what to do', async () => {
    const session = await signUpVerified(t.server, { password: PASSWORD });
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    const options = () => session.json('GET', '/api/auth/passkey/generate-register-options');
    expect((await options()).status).toBe(200);
    await ageSignIns(t.server.app.parts.db, id, 11);
    const refused = await options();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: 'SESSION_NOT_FRESH',
      message: PASSKEY_NEEDS_RECENT_SIGN_IN,
    });
    const verify = await session.json('POST', '/api/auth/passkey/verify-registration', {
      response: {},
    });
    expect(verify.status).toBe(403);
    // The rest of the account is not held to it.
    expect((await session.json('GET', '/api/me')).status).toBe(200);
  });

  it('refuses a malformed answer from the device as a bad request: 400, nothing stored', async () => {
    const session = await signUpVerified(t.server, { password: PASSWORD });
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    const device = { id: 'a', rawId: 'a', type: 'public-key', response: {} };
    for (const response of ['x', {}, device]) {
      const options = await session.json('GET', '/api/auth/passkey/generate-register-options');
      expect(options.status).toBe(200);
      const refused = await session.json<{ code?: string }>(
        'POST',
        '/api/auth/passkey/verify-registration',
        { response },
      );
      expect({ response, status: refused.status, code: refused.body.code }).toEqual({
        response,
        status: 400,
        code: 'FAILED_TO_VERIFY_REGISTRATION',
      });
    }
    const stored = await t.server.app.parts.db.kysely
      .selectFrom('passkey')
      .select('id')
      .where('userId', '=', id)
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('a passkey’s credential ID', () => {
  // Sign-in finds a passkey by this ID alone: a second row with it, another person's key
  // behind it, would make which key a sign-in checks a matter of row order.
  it('is registered once: a device claiming one that is stored is refused, and nothing kept', async () => {
    const owner = await signUpVerified(t.server, { password: PASSWORD });
    const original = new SoftwarePasskey();
    expect(await original.add(owner, 'Owner’s key')).toBe(200);

    const other = await signUpVerified(t.server, { password: PASSWORD });
    const { id: otherId } = (await other.json<Me>('GET', '/api/me')).body;
    const claimer = new SoftwarePasskey(original.credentialId);
    expect(await claimer.add(other, 'Claimed')).toBe(409);
    const rows = await t.server.app.parts.db.kysely
      .selectFrom('passkey')
      .select('userId')
      .where('credentialID', '=', original.credentialId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userId).not.toBe(otherId);
    const added = await t.server.app.parts.db.kysely
      .selectFrom('event')
      .select('kind')
      .where('kind', '=', 'person.second_factor_added')
      .where('personId', '=', otherId)
      .execute();
    expect(added).toEqual([]);
    expect((await original.signIn(t.server)).status).toBe(200);
  });
});

describe('a person’s own second factors', () => {
  // Someone who took over a session and added a passkey of their own must show somewhere an
  // administrator looks, as an administrator's reset does.
  it('are recorded in the audit trail as they are added and removed', async () => {
    const { session } = await enrolledPerson();
    const { id } = (await session.json<Me>('GET', '/api/me')).body;
    const passkey = new SoftwarePasskey();
    expect(await passkey.add(session, 'Laptop')).toBe(200);
    const stored = await t.server.app.parts.db.kysely
      .selectFrom('passkey')
      .select('id')
      .where('userId', '=', id)
      .executeTakeFirstOrThrow();
    const removed = await session.json('POST', '/api/auth/passkey/delete-passkey', {
      id: stored.id,
    });
    expect(removed.status).toBe(200);
    const off = await session.json('POST', '/api/auth/two-factor/disable', { password: PASSWORD });
    expect(off.status).toBe(200);

    const events = await t.server.app.parts.db.kysely
      .selectFrom('event')
      .select(['kind', 'actorId', 'fields'])
      .where('personId', '=', id)
      .where('kind', 'like', 'person.second_factor_%')
      .orderBy('seq')
      .execute();
    expect(events.map((e) => ({ ...e, fields: JSON.parse(e.fields) as unknown }))).toEqual([
      { kind: 'person.second_factor_added', actorId: id, fields: ['authenticator'] },
      { kind: 'person.second_factor_added', actorId: id, fields: ['passkey'] },
      { kind: 'person.second_factor_removed', actorId: id, fields: ['passkey'] },
      { kind: 'person.second_factor_removed', actorId: id, fields: ['authenticator'] },
    ]);
  });
});

describe('REQUIRE_2FA=true', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ REQUIRE_2FA: 'true', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(async () => strict?.close());

  async function meOf(session: Session): Promise<Me> {
    const me = await session.json<Me>('GET', '/api/me');
    expect(me.status).toBe(200);
    return me.body;
  }

  it('refuses the app to a password account without a second factor until one is set up', async () => {
    const session = await signUpVerified(strict, { password: PASSWORD });
    expect((await meOf(session)).secondFactorRequired).toBe(true);
    const refused = await session.json<{ code?: string }>('GET', '/api/clients');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SECOND_FACTOR_REQUIRED');
    // Their own account stays open (Settings' sessions list).
    expect((await session.json('GET', '/api/me/sessions')).status).toBe(200);

    await enrolTotp(session, PASSWORD);
    expect((await meOf(session)).secondFactorRequired).toBe(false);
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
  });

  // A token works without the second factor once the person sets one up: whoever has only the
  // password must not be able to make one that waits for that moment.
  it('makes no API token before a second factor is set up', async () => {
    const session = await signUpVerified(strict, { password: PASSWORD });
    const token = { name: 'Early', scope: 'write', expiresInDays: null };
    const refused = await session.json<{ code?: string }>('POST', '/api/me/tokens', token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SECOND_FACTOR_REQUIRED');
    expect((await session.json('GET', '/api/me/tokens')).body).toMatchObject({
      tokens: [],
    });
    await enrolTotp(session, PASSWORD);
    expect((await session.json('POST', '/api/me/tokens', token)).status).toBe(201);
  });

  it('counts a passkey as a second factor', async () => {
    const session = await signUpVerified(strict, { password: PASSWORD });
    await new SoftwarePasskey().register(strict.app.parts.db, (await meOf(session)).id);
    expect((await meOf(session)).secondFactorRequired).toBe(false);
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
  });

  it('lets a person whose second factor is a passkey sign in with it, not the password', async () => {
    const email = uniqueEmail('passkey');
    const setUp = await signUpVerified(strict, { email, password: PASSWORD });
    const passkey = new SoftwarePasskey();
    await passkey.register(strict.app.parts.db, (await meOf(setUp)).id);

    // Whoever has only the password gets no session, and no way to set up a factor of theirs.
    const thief = new Session(strict);
    const refused = await thief.json<{ code?: string; message?: string }>(
      'POST',
      '/api/auth/sign-in/email',
      { email, password: PASSWORD },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PASSKEY_SIGN_IN_REQUIRED');
    expect(refused.body.message).toMatch(/^Sign in with your passkey: /);
    expect((await thief.json('GET', '/api/me')).status).toBe(401);
    const enable = await thief.json('POST', '/api/auth/two-factor/enable', { password: PASSWORD });
    expect(enable.status).toBe(401);

    const signedIn = await passkey.signIn(strict);
    expect(signedIn.status).toBe(200);
    expect((await signedIn.session.json('GET', '/api/clients')).status).toBe(200);

    // With codes on as well, the password sign-in asks for a code, as for anyone with codes.
    await enrolTotp(signedIn.session, PASSWORD);
    const { body } = await signInWithPassword(strict, email, PASSWORD);
    expect(body.twoFactorRedirect).toBe(true);
  });

  it('ends a live stream when an administrator resets its person’s second factor', async () => {
    const admin = await enrolledPerson(strict);
    const adminId = (await meOf(admin.session)).id;
    await strict.app.parts.db.kysely
      .updateTable('user')
      .set({ role: 'admin' })
      .where('id', '=', adminId)
      .execute();
    const { session } = await enrolledPerson(strict);
    const stream = await openEventStream(strict.url, session.cookieHeader);
    try {
      await stream.until('stream.ready');
      const reset = await admin.session.json(
        'POST',
        `/api/people/${(await meOf(session)).id}/reset-second-factor`,
      );
      expect(reset.status).toBe(200);
      // Ended at the event that records it, before any later event, as the person's other
      // requests are refused from now on: not left open for the rest of the session.
      await expect(stream.until('no such event', 10_000)).rejects.toThrow('stream ended');
      const again = await session.request('GET', '/api/events', undefined, {
        accept: 'text/event-stream',
      });
      expect(again.status).toBe(403);
      expect(((await again.json()) as { code?: string }).code).toBe('SECOND_FACTOR_REQUIRED');
    } finally {
      stream.close();
    }
  });

  it('leaves a person who signs in only through a provider to that provider', async () => {
    const session = await signUpVerified(strict, { password: PASSWORD });
    const { id: userId } = await meOf(session);
    // As an OpenID Connect or Google sign-in leaves it: the person's one account is the
    // provider's, with no password here.
    await strict.app.parts.db.kysely
      .updateTable('account')
      .set({ providerId: 'google', accountId: `google-${userId}`, password: null })
      .where('userId', '=', userId)
      .execute();
    expect((await meOf(session)).secondFactorRequired).toBe(false);
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
  });
});

/** A six-digit code that is not the right one. */
function wrongCode(right: string): string {
  return String((Number(right) + 1) % 1_000_000).padStart(6, '0');
}

describe('an unexpected failure inside Better Auth', () => {
  it('is logged once through the app log and answered as every 500, never printed raw', async () => {
    const { email, session: enrolledIn } = await enrolledPerson();
    const { id } = (await enrolledIn.json<Me>('GET', '/api/me')).body;
    // A secret that no longer opens, as a database restored under another key would hold:
    // Better Auth's decryption throws at the code step.
    const { kysely } = t.server.app.parts.db;
    const { secret } = await kysely
      .selectFrom('twoFactor')
      .select('secret')
      .where('userId', '=', id)
      .executeTakeFirstOrThrow();
    const flipped = secret.slice(0, -1) + (secret.endsWith('0') ? '1' : '0');
    await kysely
      .updateTable('twoFactor')
      .set({ secret: flipped })
      .where('userId', '=', id)
      .execute();
    const { session } = await signInWithPassword(t.server, email, PASSWORD);

    const printed: unknown[][] = [];
    const loggedBefore = logLines.length;
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    let answer;
    try {
      answer = await verify(session, 'totp', '123456');
    } finally {
      console.error = consoleError;
    }
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ error: 'Something went wrong on the server. Try again.' });
    expect(printed).toEqual([]);
    const failures = logLines
      .slice(loggedBefore)
      .map((line) => JSON.parse(line) as { msg?: string })
      .filter((entry) => entry.msg === 'request failed');
    expect(failures).toHaveLength(1);
  });
});
