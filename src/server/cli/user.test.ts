import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { onlyAdmins, setAccess } from '#server/testing/access.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { notAllowedMessage } from '#server/auth/allowlist.ts';
import { unverifiedAccountMessage } from '#shared/people-admin.ts';
import { runScript, type ScriptResult } from '#server/testing/run-script.ts';

const t = serveThisFile();

/** Runs `npm run user -- …` as an operator would, on the test server's data folder. */
function userCommand(
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
  server: TestServer = t.server,
): Promise<ScriptResult> {
  return runScript('src/server/cli/user.ts', args, {
    env: { DATA_DIR: server.dataDir, ...server.databaseEnv, ...env },
    stdin,
  });
}

async function signIn(
  email: string,
  password: string,
): Promise<{ session: Session; status: number; body: { message?: string } }> {
  const session = new Session(t.server);
  const { status, body } = await session.json<{ message?: string }>(
    'POST',
    '/api/auth/sign-in/email',
    { email, password },
  );
  return { session, status, body };
}

// Each command is a process of its own that opens the database: slow on a busy machine.
describe('npm run user', { timeout: 60_000 }, () => {
  it('creates a verified user with a password from standard input', async () => {
    const result = await userCommand(
      ['create', '--email', 'ops@example.test', '--name', 'Ops'],
      'piped password 1\n',
    );
    expect(result).toMatchObject({ code: 0, out: 'Created ops@example.test (verified).\n' });
    // Hashed as production hashes (Better Auth's scrypt), not as the test server does.
    const stored = await t.server.app.parts.db.kysely
      .selectFrom('account')
      .innerJoin('user', 'user.id', 'account.userId')
      .select('account.password')
      .where('user.email', '=', 'ops@example.test')
      .executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const { session, status } = await signIn('ops@example.test', 'piped password 1');
    expect(status).toBe(200);
    expect((await session.json<{ displayName: string }>('GET', '/api/me')).body.displayName).toBe(
      'Ops',
    );
  });

  it('generates a password and prints it once when none is given', async () => {
    const result = await userCommand(['create', '--email', 'gen@example.test']);
    expect(result.code).toBe(0);
    const password = /Password \(shown once, store it now\): (\S+)/.exec(result.out)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await signIn('gen@example.test', password!)).status).toBe(200);
  });

  it('answers a mistyped option or an argument too many with the usage and exit code 2', async () => {
    const typo = await userCommand(['create', '--secret', 'x'], 'typo password 1');
    expect(typo).toMatchObject({ code: 2, out: '' });
    expect(typo.err).toMatch(/^Unknown option '--secret'.*\n\nUsage: npm run user -- /);
    expect(typo.err).not.toMatch(/\n\s+at /);

    // A password typed as an argument would otherwise be ignored and another one generated.
    const extra = await userCommand(['create', '--email', 'extra@example.test', 'MyPassword1']);
    expect(extra).toMatchObject({ code: 2, out: '' });
    expect(extra.err).toMatch(/^Unexpected second argument: .*\n\nUsage: npm run user -- /);
    expect(extra.err).not.toContain('MyPassword1');
    const users = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'extra@example.test')
      .execute();
    expect(users).toHaveLength(0);
  });

  it('lists display names with control, bidi and zero-width characters escaped', async () => {
    const email = 'eve@example.test';
    await signUpVerified(t.server, { email, name: 'Eve' });
    // However it got there (an older version's API, a provider's profile, the database).
    const hostile = 'Eve\u001b[2K\r\u001b]52;c;Y3VybCBldmlsfHNo\u0007\u202eadmin';
    await t.server.app.parts.db.kysely
      .updateTable('user')
      .set({ name: hostile })
      .where('email', '=', email)
      .execute();
    const list = await userCommand(['list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(
      /^eve@example\.test\tEve\\u\{1b\}\[2K\\u\{d\}\\u\{1b\}\]52;c;Y3VybCBldmlsfHNo\\u\{7\}\\u\{202e\}admin\t/m,
    );
    for (const raw of ['\u001b', '\r', '\u0007', '\u202e']) expect(list.out).not.toContain(raw);
  });

  it('refuses a duplicate and says why', async () => {
    const email = 'twice@example.test';
    expect((await userCommand(['create', '--email', email], 'first password 1')).code).toBe(0);
    const result = await userCommand(['create', '--email', email], 'whatever123');
    expect(result.code).toBe(1);
    expect(result.err.trim()).toBe(`A user with the email ${email} exists already.`);
  });

  it('refuses an address longer than 254 characters, without echoing it, and creates no user', async () => {
    const email = `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.test`;
    expect(email.length).toBe(256);
    for (const address of [email, `huge@${'e'.repeat(99_990)}.test`]) {
      const result = await userCommand(['create', '--email', address], 'long address pw');
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe('--email: Must be at most 254 characters.\n');
      const rows = await t.server.app.parts.db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', address)
        .execute();
      expect(rows).toEqual([]);
    }
  });

  it('refuses a password the sign-up page would refuse, naming the limit, and no email as a usage error', async () => {
    for (const [password, limit] of [
      ['a'.repeat(129), 'Must be at most 128 characters'],
      ['short', 'Must be at least 8 characters'],
    ] as const) {
      const result = await userCommand(['create', '--email', 'limits@example.test'], password);
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe(`The password: ${limit}.\n`);
    }
    const rows = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'limits@example.test')
      .execute();
    expect(rows).toEqual([]);
    const noEmail = await userCommand(['create'], 'a fine password');
    expect(noEmail.code).toBe(2);
    expect(noEmail.err).toMatch(/^--email is required for this command\.\n\nUsage: npm run user/);
  });

  it('refuses an address with a pending invitation, and says what to do', async () => {
    const email = 'invited.first@example.test';
    const admin = await signUpVerified(t.server, { email: 'inviter@example.test' });
    await setAccess(t.server, admin, { role: 'admin' });
    const invited = await admin.json('POST', '/api/people/invitations', {
      email,
      role: 'viewer',
      tags: null,
    });
    expect(invited.status).toBe(201);
    const result = await userCommand(['create', '--email', email], 'operator chose this');
    expect(result.code).toBe(1);
    expect(result.err.trim()).toBe(
      `${email} has a pending invitation: let them sign up through its link, or revoke it in People first.`,
    );
  });

  it('disables a user: their session and live stream stop at once, and sign-in is refused', async () => {
    await userCommand(['create', '--email', 'leaver@example.test'], 'leaver password');
    const { session } = await signIn('leaver@example.test', 'leaver password');
    expect((await session.json('GET', '/api/clients')).status).toBe(200);
    const stream = await openEventStream(t.server.url, session.cookieHeader);
    await stream.next();

    const result = await userCommand(['disable', '--email', 'leaver@example.test']);
    expect(result.out.trim()).toBe('Disabled leaver@example.test; ended 1 session(s).');
    expect((await session.json('GET', '/api/clients')).status).toBe(401);
    await expect(stream.until('never', 5000)).rejects.toThrow('stream ended');

    const again = await signIn('leaver@example.test', 'leaver password');
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/This account is disabled/);
    expect((await userCommand(['list'])).out).toMatch(
      /leaver@example\.test\t-\t[a-z]+\tverified, DISABLED\t0 session\(s\)/,
    );

    await userCommand(['enable', '--email', 'leaver@example.test']);
    expect((await signIn('leaver@example.test', 'leaver password')).status).toBe(200);
  });

  it.each([
    ['ALLOWED_EMAIL_DOMAINS', { ALLOWED_EMAIL_DOMAINS: 'example.test' }],
    ['ALLOWED_EMAILS', { ALLOWED_EMAILS: 'someone.else@elsewhere.test' }],
  ])(
    'refuses to create an address %s does not allow, says why, and creates no user',
    async (_, lists) => {
      const email = 'outsider@elsewhere.test';
      const result = await userCommand(['create', '--email', email], 'outsider password', lists);
      expect(result.code).toBe(1);
      expect(result.out).toBe('');
      expect(result.err.trim()).toBe(notAllowedMessage(email));
      const users = await t.server.app.parts.db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(users).toHaveLength(0);
    },
  );

  it('creates an address the lists allow', async () => {
    const lists = { ALLOWED_EMAIL_DOMAINS: 'example.test', ALLOWED_EMAILS: 'guest@elsewhere.test' };
    for (const email of ['listed@example.test', 'guest@elsewhere.test']) {
      const result = await userCommand(['create', '--email', email], 'allowed password', lists);
      expect(result, email).toMatchObject({ code: 0, out: `Created ${email} (verified).\n` });
      expect((await signIn(email, 'allowed password')).status, email).toBe(200);
    }
  });
});

describe('npm run user -- role', { timeout: 60_000 }, () => {
  // A server of its own: how many admins there are matters.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    // The installation's first person, and so its admin: the people the tests make are not.
    await signUpVerified(server, { email: 'owner@example.test' });
  });
  afterAll(async () => server.close());

  const run = (args: string[], stdin = '', env: Record<string, string> = {}) =>
    userCommand(args, stdin, env, server);

  /** Someone signed up through the API: what the role commands act on, not what they test. */
  const signUp = (email: string) => signUpVerified(server, { email });

  async function roleEvents(email: string) {
    const user = await server.app.parts.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const events = await server.app.parts.db.kysely
      .selectFrom('event')
      .select(['kind', 'clientId', 'personId', 'actorId', 'actorName', 'fields'])
      .where('personId', '=', user.id)
      .orderBy('seq')
      .execute();
    return events.map((e) => ({ ...e, fields: JSON.parse(e.fields) as unknown }));
  }

  it('creates the first person as admin and later ones with DEFAULT_ROLE; list shows it', async () => {
    // A new installation of its own: which account is the first matters here.
    const fresh = await startTestServer();
    try {
      const create = (email: string, env: Record<string, string> = {}) =>
        userCommand(['create', '--email', email], 'some password', env, fresh);
      expect((await create('boss@example.test')).code).toBe(0);
      expect((await create('ed@example.test')).code).toBe(0);
      expect((await create('vi@example.test', { DEFAULT_ROLE: 'viewer' })).code).toBe(0);
      const list = (await userCommand(['list'], '', {}, fresh)).out;
      expect(list).toMatch(/^boss@example\.test\t-\tadmin\tverified, active\t/m);
      expect(list).toMatch(/^ed@example\.test\t-\teditor\tverified, active\t/m);
      expect(list).toMatch(/^vi@example\.test\t-\tviewer\tverified, active\t/m);
    } finally {
      await fresh.close();
    }
  });

  it('sets a role, which applies on the next request, and records it in the audit trail', async () => {
    const session = await signUp('demoted@example.test');
    expect((await session.json('POST', '/api/clients', { name: 'Before' })).status).toBe(201);

    const result = await run(['role', '--email', 'demoted@example.test', 'viewer']);
    expect(result).toMatchObject({
      code: 0,
      out: 'demoted@example.test is now viewer (was editor).\n',
    });
    expect((await session.json<Me>('GET', '/api/me')).body.role).toBe('viewer');
    expect((await session.json('POST', '/api/clients', { name: 'After' })).status).toBe(403);
    expect(await roleEvents('demoted@example.test')).toEqual([
      {
        kind: 'person.role_changed',
        clientId: null,
        personId: expect.any(String) as string,
        actorId: null,
        actorName: expect.stringMatching(/\(command line\)$/) as string,
        fields: ['role'],
      },
    ]);

    // The same role again changes nothing and records nothing.
    const again = await run(['role', '--email', 'demoted@example.test', 'viewer']);
    expect(again).toMatchObject({ code: 0, out: 'demoted@example.test is viewer already.\n' });
    expect(await roleEvents('demoted@example.test')).toHaveLength(1);
  });

  it('lifts the tag limit of someone made admin, and records both changes', async () => {
    const session = await signUp('promoted@example.test');
    await setAccess(server, session, { role: 'editor', tags: ['eu'] });
    const result = await run(['role', '--email', 'promoted@example.test', 'admin']);
    expect(result).toMatchObject({
      code: 0,
      out: 'promoted@example.test is now admin (was editor); an administrator sees every client: tag limit lifted.\n',
    });
    expect((await session.json<Me>('GET', '/api/me')).body).toMatchObject({
      role: 'admin',
      tags: null,
    });
    const kinds = (await roleEvents('promoted@example.test')).map((e) => e.kind);
    expect(kinds.slice(-2)).toEqual(['person.role_changed', 'person.tags_changed']);
  });

  it('refuses to demote the last admin, and says why', async () => {
    const onlyAdmin = await signUp('only-admin@example.test');
    expect((await run(['role', '--email', 'only-admin@example.test', 'admin'])).out).toBe(
      'only-admin@example.test is now admin (was editor).\n',
    );
    await onlyAdmins(server, [onlyAdmin]);

    const refused = await run(['role', '--email', 'only-admin@example.test', 'viewer']);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err.trim()).toBe(
      'only-admin@example.test is the last administrator: make someone else an admin first, so someone can still manage people.',
    );
    expect((await run(['list'])).out).toMatch(/^only-admin@example\.test\tTest Staff\tadmin\t/m);
    // One event: the promotion above, not the refused demotion.
    expect(await roleEvents('only-admin@example.test')).toHaveLength(1);
  });

  it('counts only enabled admins: the last enabled one is neither demoted nor disabled', async () => {
    const admins = [
      await signUp('sole-admin@example.test'),
      await signUp('off-admin@example.test'),
    ];
    for (const admin of admins) await setAccess(server, admin, { role: 'admin' });
    await onlyAdmins(server, admins);
    expect((await run(['disable', '--email', 'off-admin@example.test'])).code).toBe(0);

    // One enabled admin and one disabled: the enabled one is the last who can manage people.
    const last =
      'sole-admin@example.test is the last administrator: make someone else an admin first, so someone can still manage people.';
    const demoted = await run(['role', '--email', 'sole-admin@example.test', 'viewer']);
    expect(demoted).toMatchObject({ code: 1, out: '' });
    expect(demoted.err.trim()).toBe(last);
    const disabled = await run(['disable', '--email', 'sole-admin@example.test']);
    expect(disabled).toMatchObject({ code: 1, out: '' });
    expect(disabled.err.trim()).toBe(last);
    expect((await run(['list'])).out).toMatch(
      /^sole-admin@example\.test\tTest Staff\tadmin\tverified, active\t/m,
    );

    // The disable that was done is in the audit trail, as the People screen's is.
    const events = await roleEvents('off-admin@example.test');
    expect(events.map((e) => e.kind)).toEqual(['person.disabled']);
    expect(events[0]).toMatchObject({
      actorId: null,
      actorName: expect.stringMatching(/\(command line\)$/) as string,
      fields: ['disabled'],
    });
    expect(await roleEvents('sole-admin@example.test')).toEqual([]);
  });

  it('refuses a role for an account whose address nobody verified yet', async () => {
    // Whoever signed the address up chose the password: the role would be theirs once the
    // address's owner follows the verification link, as the People screen refuses too.
    const email = 'waiting@example.test';
    const signUp = await new Session(server).request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'chosen by anyone',
      name: 'Waiting',
    });
    expect(signUp.status).toBe(200);
    const refused = await run(['role', '--email', email, 'admin']);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err.trim()).toBe(unverifiedAccountMessage(email));
    const row = await server.app.parts.db.kysely
      .selectFrom('user')
      .select('role')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('editor');
    expect(await roleEvents(email)).toEqual([]);
  });

  it('refuses an unknown role or person', async () => {
    const badRole = await run(['role', '--email', 'someone@example.test', 'owner']);
    expect(badRole).toMatchObject({ code: 1, out: '' });
    expect(badRole.err.trim()).toBe('Name one role: admin, editor or viewer.');
    const nobody = await run(['role', '--email', 'nobody@example.test', 'viewer']);
    expect(nobody).toMatchObject({ code: 1, out: '' });
    expect(nobody.err.trim()).toBe('No user with the email nobody@example.test.');
  });
});
