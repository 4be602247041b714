import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, Run } from '#shared/apps.ts';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { Server } from '#shared/servers.ts';
import { openDatabase } from '#server/db/database.ts';
import { MailCatcher } from '#server/testing/mail-catcher.ts';
import { serverPort } from '#server/testing/free-port.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { testDatabaseEnv, testDialect } from '#server/testing/test-database.ts';
import { spawnServer, type ServerProcess } from '#server/testing/spawn-server.ts';
import { sshKeygen, startSshd, type Sshd } from '#server/testing/sshd.ts';

/**
 * A run never stays 'running' after its process is gone: the real server runs as a child
 * process and runs a command on a real sshd; SIGKILLed mid-run, the restarted server marks the
 * run interrupted; stopped gracefully (SIGTERM), it cancels the run and records it interrupted
 * itself.
 */
describe(`a run across a crash of the server (${testDialect()})`, () => {
  let mail: MailCatcher;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof testDatabaseEnv>>;
  let sshd: Sshd;
  let privateKey: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    mail = await new MailCatcher().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-run-crash-'));
    database = await testDatabaseEnv();
    const keyFile = path.join(dataDir, 'test-key');
    await sshKeygen(keyFile);
    privateKey = await readFile(keyFile, 'utf8');
    sshd = await startSshd([(await readFile(`${keyFile}.pub`, 'utf8')).trim()]);
  });
  afterAll(async () => {
    await server?.kill();
    await sshd?.close();
    await mail.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is marked interrupted after a SIGKILL, and after a graceful stop', async () => {
    const address = { url: '', mail };
    const start = async () => {
      const started = await spawnServer({
        DATA_DIR: dataDir,
        SMTP_URL: mail.url,
        ...database.env,
        PORT: String(await serverPort()),
      });
      address.url = started.url;
      return started;
    };
    server = await start();
    const admin: Session = await signUpVerified(address);
    await admin.json('PUT', '/api/me/access-token', { accessToken: 'crash-token-123456' });
    const client = await admin.json<Client>('POST', '/api/clients', { name: 'Crash Apps' });
    const credential = await admin.json<{ id: string }>('POST', '/api/credentials', {
      name: 'Crash key',
      kind: 'ssh-key',
      privateKey,
    });
    const made = await admin.json<Server>('POST', '/api/servers', {
      clientId: client.body.id,
      label: 'sshd',
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      credentialId: credential.body.id,
    });
    expect(
      (await admin.json<Server>('POST', `/api/servers/${made.body.id}/check`)).body.status,
    ).toBe('reachable');
    const app = await admin.json<App>('POST', '/api/apps', {
      clientId: client.body.id,
      serverId: made.body.id,
      name: 'web',
      command: 'echo started; sleep 60; echo never',
    });
    expect(app.status).toBe(201);

    /** Deploys and waits until the command has printed its first line. */
    const deployAndWait = async (): Promise<string> => {
      const run = await admin.json<Run>('POST', `/api/apps/${app.body.id}/runs`);
      expect(run.status).toBe(201);
      await expect
        .poll(async () => (await admin.request('GET', `/api/runs/${run.body.id}/log.txt`)).text(), {
          timeout: 15_000,
          interval: 50,
        })
        .toContain('started\n');
      return run.body.id;
    };

    // SIGKILL: no shutdown code runs; the run's row says 'running' with the last heartbeat.
    const killed = await deployAndWait();
    await server.kill();
    if (testDialect() === 'postgres') {
      // Other instances may hold runs on PostgreSQL: only a run whose heartbeat is older than
      // three intervals is taken for lost. Thirty seconds pass here in a moment.
      const db = openDatabase({ kind: 'postgres', url: database.env.DATABASE_URL!, poolSize: 1 });
      await db.kysely
        .updateTable('run')
        .set({ heartbeatAt: new Date(Date.now() - 60_000).toISOString() })
        .where('id', '=', killed)
        .execute();
      await db.close();
    }
    server = await start();
    const afterKill = await admin.json<Run>('GET', `/api/runs/${killed}`);
    expect(afterKill.body).toMatchObject({
      state: 'interrupted',
      reason: 'the server process stopped while it ran',
    });
    expect(afterKill.body.endedAt).not.toBeNull();
    const log = await (await admin.request('GET', `/api/runs/${killed}/log.txt`)).text();
    expect(log).toMatch(/started\nInterrupted: the server process stopped while this ran/);
    const history = await admin.json<ClientHistory>(
      'GET',
      `/api/clients/${client.body.id}/history`,
    );
    expect(
      history.body.events.filter((e) => e.runId === killed).map((e) => [e.kind, e.fields]),
    ).toEqual([
      ['run.ended', ['state:interrupted']],
      ['run.started', []],
    ]);

    // SIGTERM: the server cancels its run and records it interrupted before it exits.
    const stopped = await deployAndWait();
    await server.stop();
    server = await start();
    expect((await admin.json<Run>('GET', `/api/runs/${stopped}`)).body).toMatchObject({
      state: 'interrupted',
      reason: 'the server process was stopped while it ran',
    });
    const stoppedLog = await (await admin.request('GET', `/api/runs/${stopped}/log.txt`)).text();
    expect(stoppedLog).toMatch(/Interrupted after [\d.]+ s: the server process was stopped/);
    await server.stop();
  }, 120_000);
});
