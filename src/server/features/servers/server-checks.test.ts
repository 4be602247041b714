import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import type { AddressInfo } from 'node:net';
import { closedPort } from '#server/testing/free-port.ts';
import { startDisconnectingServer } from '#server/testing/disconnecting-ssh-server.ts';
import { SECRET_MASK } from '../runs/masker.ts';
import { sshKeygen, startSshd, type Sshd } from '#server/testing/sshd.ts';
import { resolveSecretKey, SecretBox } from '#server/secrets.ts';
import { newCredential } from '../credentials/credential-secrets.ts';
import type { CredentialKind } from '#shared/servers.ts';
import {
  startPasswordSshServer,
  type PasswordSshServer,
} from '#server/testing/ssh-password-server.ts';

/**
 * 'Check now' against real SSH servers: Debian's OpenSSH (host keys, restarted with a new one)
 * and an ssh2 server in the test that takes one password. Retries wait 10 ms here, not seconds.
 */
const t = serveThisFile({
  start: { serverChecks: { timeoutMs: 5_000, retryDelayMs: 10 } },
  staff: { member: { name: 'Cleo Checks' } },
});

const PASSWORD = 'correct horse battery';
const PASSPHRASE = 'pass';
let sshd: Sshd;
let passwordServer: PasswordSshServer;
let keyDir: string;
/** Private keys written by ssh-keygen: two that sshd lets in, one it does not know. */
const keys = { plain: '', withPassphrase: '', unknown: '' };

beforeAll(async () => {
  keyDir = await mkdtemp(path.join(os.tmpdir(), 'cm-check-keys-'));
  const make = async (name: string, passphrase?: string) => {
    const file = path.join(keyDir, name);
    await sshKeygen(file, { passphrase, comment: name });
    return {
      privateKey: await readFile(file, 'utf8'),
      publicKey: (await readFile(`${file}.pub`, 'utf8')).trim(),
    };
  };
  const plain = await make('plain');
  const withPassphrase = await make('with-passphrase', PASSPHRASE);
  const unknown = await make('unknown');
  keys.plain = plain.privateKey;
  keys.withPassphrase = withPassphrase.privateKey;
  keys.unknown = unknown.privateKey;
  sshd = await startSshd([plain.publicKey, withPassphrase.publicKey]);
  passwordServer = await startPasswordSshServer({ username: 'deploy', password: PASSWORD });
});
afterAll(async () => {
  passwordServer?.close();
  await sshd?.close();
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
});

/**
 * Puts a credential in the vault as the vault's routes would, sealed by the app's own box,
 * and lets the server use it.
 */
async function attachCredential(
  serverId: string,
  kind: CredentialKind,
  secret: string,
  passphrase?: string,
): Promise<void> {
  const { db } = t.server.app.parts;
  const { config } = t.server;
  const box = new SecretBox(resolveSecretKey(config.secretKey, config.dataDir));
  const credential = newCredential(
    box,
    { name: `${kind} for ${serverId}`, kind },
    { secret, passphrase: passphrase ?? null, publicKey: null, fingerprint: null },
    { id: null },
    new Date().toISOString(),
  );
  await db.kysely.insertInto('credential').values(credential).execute();
  await db.kysely
    .updateTable('server')
    .set({ credentialId: credential.id })
    .where('id', '=', serverId)
    .execute();
}

/** Pins a host key as an accepted one would be (the acceptance route is not this file's). */
async function pin(serverId: string, hostKey: { algorithm: string; fingerprint: string }) {
  await t.server.app.parts.db.kysely
    .updateTable('server')
    .set({ hostKeyAlgorithm: hostKey.algorithm, hostKeyFingerprint: hostKey.fingerprint })
    .where('id', '=', serverId)
    .execute();
}

/**
 * Runs `steps` while the password server holds its answers (checks wait mid-login) until they
 * call `release`; the answers go out at the end, whatever happens.
 */
async function withAnswersHeld(steps: (release: () => void) => Promise<void>): Promise<void> {
  let release = () => {};
  passwordServer.answersHeldUntil = new Promise<void>((resolve) => (release = resolve));
  try {
    await steps(release);
  } finally {
    passwordServer.answersHeldUntil = undefined;
    release();
  }
}

/** How many checks of the server wait on the one SSH login under way to it. */
function checksAwaiting(serverId: string): number {
  return t.server.app.parts.checks.awaiting(serverId);
}

/** A client whose form made its primary server; returns that server's id. */
async function serverFor(name: string, server: Record<string, unknown>): Promise<string> {
  const client = await t.staff.member.json<Client>('POST', '/api/clients', { name, server });
  expect(client.status).toBe(201);
  const list = await t.staff.member.json<ServerList>(
    'GET',
    `/api/servers?clientId=${client.body.id}`,
  );
  return list.body.servers[0]!.id;
}

/** A server at the ssh2 password server, as the client form makes it, with `password` (or none). */
function atPasswordServer(name: string, password: string | null = PASSWORD) {
  return serverFor(name, {
    host: passwordServer.host,
    port: passwordServer.port,
    username: 'deploy',
    ...(password === null ? {} : { password }),
  });
}

async function check(id: string) {
  return t.staff.member.json<Server & { error?: string }>('POST', `/api/servers/${id}/check`);
}

async function historyOf(server: Server) {
  const { body } = await t.staff.member.json<ClientHistory>(
    'GET',
    `/api/clients/${server.client.id}/history`,
  );
  return body.events.filter((event) => event.serverId === server.id);
}

describe('POST /api/servers/:id/check', () => {
  it('logs in with the password credential, pins the host key and records the check', async () => {
    const id = await atPasswordServer('Password Check');
    passwordServer.passwordsTried.length = 0;
    const { status, body } = await check(id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id,
      status: 'reachable',
      reason: null,
      hostKey: passwordServer.hostKey,
      version: 1,
    });
    expect(body.checkedAt).not.toBeNull();
    expect(body.statusSince).toBe(body.checkedAt);
    expect(passwordServer.passwordsTried).toEqual([PASSWORD]);

    const events = await historyOf(body);
    expect(events).toMatchObject([
      { kind: 'server.checked', fields: ['status:reachable', 'hostKey'] },
    ]);
    expect(JSON.stringify({ body, events })).not.toContain(PASSWORD);
  });

  it('never replaces a key pinned while it was checking', async () => {
    const id = await atPasswordServer('Pinned Meanwhile');
    await withAnswersHeld(async (release) => {
      // This check has read the server unpinned and now waits, mid-login, for its answer.
      const checking = check(id);
      await expect.poll(() => passwordServer.loginsUnderWay, { timeout: 10_000 }).toBe(1);
      // Another check (another instance's, say) pins the key it saw at that address.
      const other = { algorithm: 'ssh-ed25519', fingerprint: 'SHA256:pinnedByAnotherCheck' };
      await pin(id, other);
      release();
      expect((await checking).status).toBe(200);
      const { body } = await t.staff.member.json<Server>('GET', `/api/servers/${id}`);
      expect(body.hostKey).toEqual(other);
      expect((await historyOf(body)).map((event) => event.fields)).not.toContainEqual([
        'status:reachable',
        'hostKey',
      ]);
    });
  });

  it('logs in once for every Check now of a server made while its check is under way', async () => {
    const id = await atPasswordServer('Checked At Once');
    passwordServer.passwordsTried.length = 0;
    await withAnswersHeld(async (release) => {
      const first = check(id);
      await expect.poll(() => passwordServer.loginsUnderWay, { timeout: 10_000 }).toBe(1);
      // A person clicking again and again, or several people: each waits for the same login.
      const more = Array.from({ length: 4 }, () => check(id));
      await expect.poll(() => checksAwaiting(id), { timeout: 10_000 }).toBe(5);
      release();
      const answers = await Promise.all([first, ...more]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      for (const { body } of answers) expect(body).toMatchObject({ id, status: 'reachable' });
      expect(passwordServer.passwordsTried).toEqual([PASSWORD]);
      expect(checksAwaiting(id)).toBe(0);
    });
  });

  it('logs in again for a check asked for after its credential changed', async () => {
    const id = await atPasswordServer('Credential Changed Mid-Check');
    passwordServer.passwordsTried.length = 0;
    await withAnswersHeld(async (release) => {
      const before = check(id);
      // Its password already sent: a login merely under way may still be in its handshake
      // when the next one sends the new password.
      await expect.poll(() => passwordServer.passwordsTried.length, { timeout: 10_000 }).toBe(1);
      await attachCredential(id, 'password', 'the new password');
      const after = check(id);
      await expect.poll(() => passwordServer.passwordsTried.length, { timeout: 10_000 }).toBe(2);
      release();
      await Promise.all([before, after]);
      expect(passwordServer.passwordsTried).toEqual([PASSWORD, 'the new password']);
    });
  });

  it('masks the secrets in the words a failing server ends the check with', async () => {
    const token = 'deploy-token-of-cleo-4471';
    expect(
      (await t.staff.member.json('PUT', '/api/me/access-token', { accessToken: token })).status,
    ).toBe(200);
    const id = await atPasswordServer('Says What It Knows');
    // The server at its address now ends every connection repeating what it learnt.
    const hostile = await startDisconnectingServer(`known: ${PASSWORD} and ${token}`);
    try {
      const { db } = t.server.app.parts;
      const port = (hostile.address() as AddressInfo).port;
      await db.kysely.updateTable('server').set({ port }).where('id', '=', id).execute();
      const { body } = await check(id);
      expect(body).toMatchObject({
        status: 'unreachable',
        reason: `the server ended the connection, saying “known: ${SECRET_MASK} and ${SECRET_MASK}”`,
      });
      const issue = await db.kysely
        .selectFrom('issue')
        .select('text')
        .where('serverId', '=', id)
        .executeTakeFirstOrThrow();
      const listed = await t.staff.member.json('GET', `/api/servers/${id}`);
      for (const text of [issue.text, JSON.stringify(listed.body)]) {
        expect(text).toContain(SECRET_MASK);
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain(token);
      }
    } finally {
      hostile.close();
    }
  });

  // A check reads the status before its login and writes after it; another check may write
  // in between (another instance's schedule, or Check now after the credential changed).
  it('resolves the unreachable issue a check written meanwhile opened, when it finds the server reachable', async () => {
    const id = await atPasswordServer('Seen Down Meanwhile');
    expect((await check(id)).body).toMatchObject({ status: 'reachable' });
    const { db } = t.server.app.parts;
    const moveTo = (port: number) =>
      db.kysely.updateTable('server').set({ port }).where('id', '=', id).execute();
    await withAnswersHeld(async (release) => {
      const reachable = check(id);
      await expect.poll(() => passwordServer.loginsUnderWay, { timeout: 10_000 }).toBe(1);
      // Meanwhile a check of another target finds it down, and opens the issue.
      await moveTo(await closedPort());
      expect((await check(id)).body).toMatchObject({ status: 'unreachable' });
      await moveTo(passwordServer.port);
      release();
      expect((await reachable).body).toMatchObject({ status: 'reachable' });
    });
    const open = await db.kysely
      .selectFrom('issue')
      .select('title')
      .where('serverId', '=', id)
      .where('state', '=', 'open')
      .execute();
    expect(open).toEqual([]);
    const row = await db.kysely
      .selectFrom('server')
      .select(['checkStatus', 'statusSince', 'checkedAt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ checkStatus: 'reachable' });
    expect(row.statusSince).toEqual(row.checkedAt);
  });

  it('says authentication failed for a wrong password, and tries it once', async () => {
    const id = await atPasswordServer('Wrong Password', 'not the password');
    passwordServer.passwordsTried.length = 0;
    const { body } = await check(id);
    expect(body).toMatchObject({ status: 'unreachable', reason: 'authentication failed' });
    expect(passwordServer.passwordsTried).toEqual(['not the password']);
  });

  it("pins OpenSSH's host key, then marks a new one as changed and keeps the old pin", async () => {
    const id = await serverFor('OpenSSH Check', {
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
    });
    const first = (await check(id)).body;
    const original = await sshd.hostKey();
    expect(first).toMatchObject({ status: 'reachable', hostKey: original });

    await sshd.changeHostKey();
    const changed = await sshd.hostKey();
    const { body } = await check(id);
    expect(body).toMatchObject({
      status: 'host_key_changed',
      hostKey: original,
      offeredHostKey: changed,
    });
    expect(body.reason).toBe(
      `host key changed: the server offered ${changed.fingerprint} (${changed.algorithm}), not the pinned ${original.fingerprint}`,
    );
    expect(body.statusSince).toBe(body.checkedAt);
    // Newest first: the changed key also opened a problem issue about the server.
    expect((await historyOf(body)).map((event) => [event.kind, event.fields])).toEqual([
      ['issue.opened', ['problem']],
      ['server.checked', ['status:host_key_changed']],
      ['server.checked', ['status:reachable', 'hostKey']],
    ]);
  });

  it('logs in to OpenSSH with an Ed25519 key from the vault', async () => {
    const id = await serverFor('Key Check', {
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
    });
    await attachCredential(id, 'ssh-key', keys.plain);
    const { body } = await check(id);
    expect(body).toMatchObject({
      status: 'reachable',
      reason: null,
      hostKey: await sshd.hostKey(),
      offeredHostKey: null,
    });
    const events = await historyOf(body);
    expect(events).toMatchObject([
      { kind: 'server.checked', fields: ['status:reachable', 'hostKey'] },
    ]);
    expect(JSON.stringify({ body, events })).not.toContain('PRIVATE KEY');
  });

  it('logs in with a key protected by a passphrase, opening both with the box', async () => {
    const id = await serverFor('Passphrase Key Check', {
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
    });
    await attachCredential(id, 'ssh-key', keys.withPassphrase, PASSPHRASE);
    const { body } = await check(id);
    expect(body).toMatchObject({ status: 'reachable', reason: null });
    expect(JSON.stringify(body)).not.toContain(PASSPHRASE);
  });

  it('says authentication failed for a key the server does not know', async () => {
    const id = await serverFor('Unknown Key Check', {
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
    });
    await attachCredential(id, 'ssh-key', keys.unknown);
    const { body } = await check(id);
    expect(body).toMatchObject({ status: 'unreachable', reason: 'authentication failed' });
  });

  it('only reads the host key with a token, which is no SSH login', async () => {
    const id = await atPasswordServer('Token Check', null);
    await attachCredential(id, 'token', 'api-token-not-for-ssh');
    passwordServer.passwordsTried.length = 0;
    const { body } = await check(id);
    expect(body).toMatchObject({
      status: 'reachable',
      reason: null,
      hostKey: passwordServer.hostKey,
    });
    expect(passwordServer.passwordsTried).toEqual([]);
  });

  it('keeps the key offered instead of the pinned one until a check sees the pinned key', async () => {
    const id = await atPasswordServer('Offered Key');
    const other = { algorithm: 'ssh-ed25519', fingerprint: `SHA256:${'A'.repeat(43)}` };
    await pin(id, other);
    const changed = (await check(id)).body;
    expect(changed).toMatchObject({
      status: 'host_key_changed',
      hostKey: other,
      offeredHostKey: passwordServer.hostKey,
    });

    // Unreachable says nothing about the key: what was offered stays to be accepted.
    await t.server.app.parts.db.kysely
      .updateTable('server')
      .set({ port: await closedPort() })
      .where('id', '=', id)
      .execute();
    const refused = (await check(id)).body;
    expect(refused).toMatchObject({
      status: 'unreachable',
      hostKey: other,
      offeredHostKey: passwordServer.hostKey,
    });

    await t.server.app.parts.db.kysely
      .updateTable('server')
      .set({ port: passwordServer.port })
      .where('id', '=', id)
      .execute();
    await pin(id, passwordServer.hostKey);
    const reachable = (await check(id)).body;
    expect(reachable).toMatchObject({
      status: 'reachable',
      hostKey: passwordServer.hostKey,
      offeredHostKey: null,
    });
  });

  it('says connection refused for a closed port, after its retries', async () => {
    const id = await serverFor('Closed Port', { host: '127.0.0.1', port: await closedPort() });
    const { body } = await check(id);
    expect(body).toMatchObject({
      status: 'unreachable',
      reason: 'connection refused',
      hostKey: null,
    });
  });

  it('refuses a server without a host, naming the field, and an unknown one', async () => {
    const id = await serverFor('No Host', {});
    const { status, body } = await check(id);
    expect(status).toBe(400);
    expect(body.error).toMatch(/^host:/);
    expect((await check('unknownServer01')).status).toBe(404);
  });
});
