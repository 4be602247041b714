import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { freePort } from '#server/testing/free-port.ts';
import { startSshd, type Sshd } from '#server/testing/sshd.ts';
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
let sshd: Sshd;
let passwordServer: PasswordSshServer;

beforeAll(async () => {
  sshd = await startSshd([]);
  passwordServer = await startPasswordSshServer({ username: 'deploy', password: PASSWORD });
});
afterAll(async () => {
  passwordServer?.close();
  await sshd?.close();
});

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
    const id = await serverFor('Password Check', {
      host: passwordServer.host,
      port: passwordServer.port,
      username: 'deploy',
      password: PASSWORD,
    });
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

  it('says authentication failed for a wrong password, and tries it once', async () => {
    const id = await serverFor('Wrong Password', {
      host: passwordServer.host,
      port: passwordServer.port,
      username: 'deploy',
      password: 'not the password',
    });
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
    expect(body).toMatchObject({ status: 'host_key_changed', hostKey: original });
    expect(body.reason).toBe(
      `host key changed: the server offered ${changed.fingerprint} (${changed.algorithm}), not the pinned ${original.fingerprint}`,
    );
    expect(body.statusSince).toBe(body.checkedAt);
    expect((await historyOf(body)).map((event) => event.fields)).toEqual([
      ['status:host_key_changed'],
      ['status:reachable', 'hostKey'],
    ]);
  });

  it('says connection refused for a closed port, after its retries', async () => {
    const id = await serverFor('Closed Port', { host: '127.0.0.1', port: await freePort() });
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
