import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { notAllowedMessage } from '#server/auth/allowlist.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const t = serveThisFile();

/** Runs `npm run user -- …` as an operator would, on the test server's data folder. */
function userCommand(
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/server/cli/user.ts', ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: t.server.dataDir,
        ...t.server.databaseEnv,
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
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

describe('npm run user', () => {
  it('creates a verified user with a password from standard input', async () => {
    const result = await userCommand(
      ['create', '--email', 'ops@example.test', '--name', 'Ops'],
      'piped password 1\n',
    );
    expect(result).toMatchObject({ code: 0, out: 'Created ops@example.test (verified).\n' });
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

  it('refuses a duplicate and says why', async () => {
    const email = 'twice@example.test';
    expect((await userCommand(['create', '--email', email], 'first password 1')).code).toBe(0);
    const result = await userCommand(['create', '--email', email], 'whatever123');
    expect(result.code).toBe(1);
    expect(result.err.trim()).toBe(`A user with the email ${email} exists already.`);
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
      /leaver@example\.test\t-\tverified, DISABLED\t0 session\(s\)/,
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
