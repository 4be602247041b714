import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runScript } from '../testing/run-script.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/test-server.ts';

/**
 * Whoever holds a backup file and nothing else (no SECRET_KEY) must not get into an account
 * with it (docs/security.md, threat model).
 */

const SECRET_KEY = 'k'.repeat(40);
const PASSWORD = 'correct horse battery';
let server: TestServer;
let backup: SQLite.Database;
let email: string;
let victim: Session;

beforeAll(async () => {
  server = await startTestServer({ SECRET_KEY });
  email = uniqueEmail('victim');
  victim = await signUpVerified(server, { email, password: PASSWORD, name: 'Victim' });
  // The victim asks for a reset and never uses it; they stay signed in meanwhile.
  const ask = await new Session(server).request('POST', '/api/auth/request-password-reset', {
    email,
    redirectTo: '/reset-password',
  });
  expect(ask.status).toBe(200);
  await server.mail.waitFor(email, 'Reset your Clients Manager password', 0);
  expect((await victim.request('GET', '/api/me')).status).toBe(200);
  const out = `${server.dataDir}/holder.backup.db`;
  const made = await runScript('src/server/cli/backup.ts', ['--out', out], {
    env: { DATA_DIR: server.dataDir, SECRET_KEY, ...server.databaseEnv },
  });
  expect(made.code, made.err).toBe(0);
  backup = new SQLite(fs.realpathSync(out), { readonly: true });
}, 120_000);
afterAll(async () => {
  backup?.close();
  await server.close();
});

it('a pending password reset in a backup does not let its holder set a password', async () => {
  const rows = backup.prepare('select identifier, value from verification').all() as {
    identifier: string;
    value: string;
  }[];
  const userId = (
    backup.prepare('select id from user where email = ?').get(email) as {
      id: string;
    }
  ).id;
  const reset = rows.filter((row) => row.value === userId);
  expect(reset).toHaveLength(1);
  const stored = reset[0]!.identifier;
  // Whatever the holder tries as the token: the stored identifier, with or without a prefix.
  for (const token of [stored.replace(/^reset-password:/, ''), stored]) {
    const attempt = await new Session(server).request('POST', '/api/auth/reset-password', {
      token,
      newPassword: 'attacker-chosen-pw',
    });
    expect(attempt.status).toBe(400);
  }
  const signIn = await new Session(server).request('POST', '/api/auth/sign-in/email', {
    email,
    password: 'attacker-chosen-pw',
  });
  expect(signIn.status).toBe(401);
  expect(stored).not.toMatch(/^reset-password:/);
});

it('a session token in a backup is no cookie without SECRET_KEY', async () => {
  const { token } = backup
    .prepare('select token from session join user on user.id = session.userId where email = ?')
    .get(email) as { token: string };
  // The cookie is the token and its HMAC under a key derived from SECRET_KEY.
  expect(decodeURIComponent(victim.cookies.get('cm.session_token')!)).toMatch(
    new RegExp(`^${token}\\.`),
  );
  for (const cookie of [token, `${token}.${'A'.repeat(43)}=`]) {
    const response = await fetch(new URL('/api/me', server.url), {
      headers: { cookie: `cm.session_token=${encodeURIComponent(cookie)}` },
    });
    expect(response.status).toBe(401);
  }
});
