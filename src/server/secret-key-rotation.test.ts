import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client, ClientCommand } from '#shared/clients.ts';
import type { Credential, CredentialSecret } from '#shared/credentials.ts';
import {
  SecretBox,
  credentialPassphrasePlace,
  credentialPlace,
  deployTokenPlace,
  webhookSecretPlace,
  type SealedPlace,
} from './secrets.ts';
import type { Database } from './db/schema.ts';
import { openDatabase } from './db/database.ts';
import { sshKeygen } from './testing/sshd.ts';
import { createTestPostgresDatabase, testDialect } from './testing/test-database.ts';
import { openStoredSecrets, rotateSecretKey } from './secret-key-rotation.ts';
import { runScript } from './testing/run-script.ts';
import { enrolTotp, signInWithPassword, type Enrolled } from './testing/second-factor-steps.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from './testing/test-server.ts';

const OLD_KEY = 'old-key-0123456789abcdef0123456789abcdef';
const NEW_KEY = 'new-key-fedcba9876543210fedcba9876543210';
const PASSWORD = 'correct horse battery';

let before: TestServer;
let email: string;
/** A person with an authenticator app and backup codes, which Better Auth keeps encrypted. */
let twoFactorEmail: string;
let enrolled: Enrolled;
let kept: Client;
let deleted: Client;
let lockedKey: Credential;
let lockedKeyText: string;
const KEY_PASSPHRASE = 'key passphrase 4';

/** The data outlives `before`: the tests stop it, as the command asks, and look at the data. */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cm-rotate-data-'));
let dropDatabase = async () => {};
let stopped = false;

async function stopBefore(): Promise<void> {
  if (stopped) return;
  stopped = true;
  await before.close();
}

beforeAll(async () => {
  const databaseEnv: Record<string, string> = {};
  if (testDialect() === 'postgres') {
    const database = await createTestPostgresDatabase();
    dropDatabase = database.drop;
    databaseEnv.DATABASE_URL = database.url;
  }
  before = await startTestServer({ SECRET_KEY: OLD_KEY, ...databaseEnv }, { dataDir });
  email = uniqueEmail('rotate');
  const staff = await signUpVerified(before, { email, password: PASSWORD, name: 'Rota' });
  kept = (
    await staff.json<Client>('POST', '/api/clients', {
      name: 'Kept',
      tags: ['eu'],
      server: { host: 'kept.example', password: 'kept-password-1' },
    })
  ).body;
  deleted = (
    await staff.json<Client>('POST', '/api/clients', {
      name: 'Deleted',
      server: { password: 'deleted-password-2' },
    })
  ).body;
  expect((await staff.json('DELETE', `/api/clients/${deleted.id}`)).status).toBe(204);
  expect(
    (await staff.json('PUT', '/api/me/access-token', { accessToken: 'deploy-token-3' })).status,
  ).toBe(200);
  // A vault key with a passphrase: two sealed values in one credential.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-rotate-key-'));
  await sshKeygen(path.join(dir, 'locked'), { passphrase: KEY_PASSPHRASE });
  lockedKeyText = await readFile(path.join(dir, 'locked'), 'utf8');
  await rm(dir, { recursive: true, force: true });
  const made = await staff.json<Credential>('POST', '/api/credentials', {
    name: 'Locked key',
    kind: 'ssh-key',
    privateKey: lockedKeyText,
    passphrase: KEY_PASSPHRASE,
  });
  expect(made.status).toBe(201);
  lockedKey = made.body;
  // A webhook's signing secret, switched off (it delivers nothing).
  const hook = await staff.json('POST', '/api/webhooks', {
    url: 'https://hooks.example.com/rotate',
    events: ['client.created'],
    enabled: false,
    secret: 'webhook-secret-5-rotated',
  });
  expect(hook.status).toBe(201);
  twoFactorEmail = uniqueEmail('rotate-2fa');
  const twoFactor = await signUpVerified(before, {
    email: twoFactorEmail,
    password: PASSWORD,
    name: 'Codes',
  });
  enrolled = await enrolTotp(twoFactor, PASSWORD);
});
afterAll(async () => {
  await stopBefore();
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

async function rotateCli(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const { code, out, err } = await runScript('src/server/cli/rotate-secret-key.ts', [], {
    env: {
      DATA_DIR: before.dataDir,
      ...before.databaseEnv,
      ...(before.config.database.kind === 'sqlite'
        ? { DATABASE_URL: `sqlite:${before.config.database.file}` }
        : {}),
      ...env,
    },
  });
  return { code: code ?? -1, out: out + err };
}

async function sealedSecrets(db: Kysely<Database>) {
  return [
    // The passwords of the kept client and of the deleted one (its credential stays for undo).
    ...(await db.selectFrom('credential').select(['id', 'secret as s']).execute()).map((row) => ({
      s: row.s,
      place: credentialPlace(row.id),
    })),
    // The passphrase of the vault's key.
    ...(await db.selectFrom('credential').select(['id', 'passphrase as s']).execute()).map(
      (row) => ({ s: row.s, place: credentialPassphrasePlace(row.id) }),
    ),
    ...(await db.selectFrom('deployToken').select(['userId', 'token as s']).execute()).map(
      (row) => ({ s: row.s, place: deployTokenPlace(row.userId) }),
    ),
    ...(await db.selectFrom('webhook').select(['id', 'secret as s']).execute()).map((row) => ({
      s: row.s,
      place: webhookSecretPlace(row.id),
    })),
  ].filter((row): row is { s: string; place: SealedPlace } => row.s !== null);
}

it('a wrong previous key changes nothing and says which secret it could not open', async () => {
  const db = before.app.parts.db.kysely;
  const sealed = await sealedSecrets(db);
  await expect(
    rotateSecretKey(db, {
      previous: 'not-the-key-0000000000000000000000000000',
      // Neither key has sealed anything here, before the rotation below or after it.
      next: 'nor-this-key-111111111111111111111111111',
    }),
  ).rejects.toThrow(
    /^Neither SECRET_KEY_PREVIOUS nor SECRET_KEY opens the secret of credential [\w-]+: nothing was changed/,
  );
  expect(await sealedSecrets(db)).toEqual(sealed);
  const missing = await rotateCli({ SECRET_KEY: NEW_KEY });
  expect(missing.code).toBe(2);
  expect(missing.out).toContain('Set both SECRET_KEY_PREVIOUS');
});

// A server left running through a rotation seals what it writes next under the old key.
it('npm run rotate-secret-key refuses while a server runs on the database, and changes nothing', async () => {
  const db = before.app.parts.db.kysely;
  const sealed = await sealedSecrets(db);
  const { code, out } = await rotateCli({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY });
  expect(code).toBe(1);
  expect(out.trim()).toBe(
    `Nothing was changed: ${
      before.config.database.kind === 'postgres'
        ? '1 Clients Manager server(s) are running on this database: stop every instance first.'
        : `${before.config.database.file} is open in another process (a Clients Manager server running on it?): stop it first.`
    }`,
  );
  expect(await sealedSecrets(db)).toEqual(sealed);
});

// Should a rotation still run beside a server (on PostgreSQL, one whose listening connection
// was down at that moment), what that server seals next is found at the next start, not when
// someone needs the secret after the previous key is gone; running the rotation again mends it.
it('a secret sealed by a server left running with the previous key stops the next start, until the rotation runs again', async () => {
  const db = before.app.parts.db.kysely;
  const report = await rotateSecretKey(db, { previous: OLD_KEY, next: NEW_KEY });
  // Three credentials' secrets and the key's passphrase, the deploy token, the webhook's secret,
  // and the authenticator secret and backup codes of the person who has them.
  expect(report.resealed).toEqual({ credentials: 3, deployTokens: 1, webhooks: 1, twoFactors: 1 });
  const refusal = (what: string) =>
    new RegExp(
      `^SECRET_KEY does not open ${what} where it is stored\\. .*npm run rotate-secret-key.*SECRET_KEY_PREVIOUS`,
    );
  // Someone sets up an authenticator there...
  const lateEmail = uniqueEmail('rotate-late');
  const codes = await signUpVerified(before, { email: lateEmail, password: PASSWORD });
  await enrolTotp(codes, PASSWORD);
  const { id: lateUser } = (await codes.json<{ id: string }>('GET', '/api/me')).body;
  await expect(openStoredSecrets(db, NEW_KEY)).rejects.toThrow(
    refusal(`the authenticator secret of user ${lateUser}`),
  );
  // ...and someone else adds a token to the vault.
  const staff = new Session(before);
  const signIn = await staff.request('POST', '/api/auth/sign-in/email', {
    email,
    password: PASSWORD,
  });
  expect(signIn.status).toBe(200);
  const late = await staff.json<Credential>('POST', '/api/credentials', {
    name: 'Made after the rotation',
    kind: 'token',
    secret: 'late-token-6',
  });
  expect(late.status).toBe(201);
  const sealed = await sealedSecrets(db);
  await expect(openStoredSecrets(db, NEW_KEY)).rejects.toThrow(
    refusal(`the secret of credential ${late.body.id}`),
  );
  expect(await sealedSecrets(db)).toEqual(sealed);
  await stopBefore();

  const again = await rotateCli({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY });
  expect(again.out).toContain(
    'Re-encrypted 1 credential(s), 0 deploy token(s), 0 webhook secret(s) and the authenticator secret and backup codes of 1 person(s)',
  );
  expect(again.code).toBe(0);
  const stopped = openDatabase(before.config.database);
  try {
    expect(await openStoredSecrets(stopped.kysely, NEW_KEY)).toBe(0);
  } finally {
    await stopped.close();
  }
});

it('npm run rotate-secret-key leaves everything under the new key, authenticator codes too; the app reads it with the new key, the old key opens nothing', async () => {
  const { code, out } = await rotateCli({ SECRET_KEY: NEW_KEY, SECRET_KEY_PREVIOUS: OLD_KEY });
  expect(code).toBe(0);
  // Everything was moved above: a run again changes nothing.
  expect(out).toContain(
    'Re-encrypted 0 credential(s), 0 deploy token(s), 0 webhook secret(s) and the authenticator secret and backup codes of 0 person(s)',
  );
  expect(out).toContain('Ended 0 session(s)');

  const stopped = openDatabase(before.config.database);
  try {
    // Sessions made under the old key, whose cookies the new one does not verify, are deleted.
    const sessions = await stopped.kysely
      .selectFrom('session')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(sessions.n)).toBe(0);
    const sealed = await sealedSecrets(stopped.kysely);
    // Four credentials' secrets, the key's passphrase, the deploy token, the webhook's secret.
    expect(sealed).toHaveLength(7);
    const oldBox = new SecretBox(OLD_KEY);
    const newBox = new SecretBox(NEW_KEY);
    for (const { s, place } of sealed) {
      expect(() => oldBox.open(s, place)).toThrow();
      expect(() => newBox.open(s, place)).not.toThrow();
    }
  } finally {
    await stopped.close();
  }

  const after = await startTestServer({
    SECRET_KEY: NEW_KEY,
    ...before.databaseEnv,
    ...(before.config.database.kind === 'sqlite'
      ? { DATABASE_URL: `sqlite:${before.config.database.file}` }
      : {}),
  });
  try {
    const staff = new Session(after);
    const signIn = await staff.request('POST', '/api/auth/sign-in/email', {
      email,
      password: PASSWORD,
    });
    expect(signIn.status).toBe(200);
    const password = await staff.json<{ password: string }>(
      'GET',
      `/api/clients/${kept.id}/password`,
    );
    expect(password.body.password).toBe('kept-password-1');
    const commands = await staff.json<{ commands: ClientCommand[] }>(
      'GET',
      `/api/clients/${kept.id}/commands`,
    );
    expect(commands.body.commands.find((c) => c.id === 'deploy')?.command).toContain(
      'deploy-token-3',
    );
    expect((await staff.json('POST', `/api/clients/${deleted.id}/restore`)).status).toBe(200);
    const restored = await staff.json<{ password: string }>(
      'GET',
      `/api/clients/${deleted.id}/password`,
    );
    expect(restored.body.password).toBe('deleted-password-2');
    const revealed = await staff.json<CredentialSecret>(
      'POST',
      `/api/credentials/${lockedKey.id}/reveal`,
      { purpose: 'reveal' },
    );
    expect(revealed.body).toEqual({ secret: lockedKeyText, passphrase: KEY_PASSPHRASE });

    // The person with an authenticator app finishes sign-in with a code, and with a backup code.
    const withCode = await signInWithPassword(after, twoFactorEmail, PASSWORD);
    expect(withCode.body.twoFactorRedirect).toBe(true);
    const totp = await withCode.session.request('POST', '/api/auth/two-factor/verify-totp', {
      code: await enrolled.app.nextCode(),
    });
    expect(totp.status, await totp.clone().text()).toBe(200);
    const withBackup = await signInWithPassword(after, twoFactorEmail, PASSWORD);
    expect(withBackup.body.twoFactorRedirect).toBe(true);
    const backup = await withBackup.session.request(
      'POST',
      '/api/auth/two-factor/verify-backup-code',
      { code: enrolled.backupCodes[0] },
    );
    expect(backup.status, await backup.clone().text()).toBe(200);
  } finally {
    await after.close();
  }
});
