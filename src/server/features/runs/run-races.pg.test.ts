import { describe, expect, it } from 'vitest';
import type { App } from '#shared/apps.ts';
import type { Client } from '#shared/clients.ts';
import type { ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { closedPort } from '#server/testing/free-port.ts';
import { runningRunRow } from '#server/testing/app-records.ts';
import { holdRow, lockWaiters } from '#server/testing/held-rows.ts';

/**
 * A deploy starting while its app is edited or deleted, on PostgreSQL, where the two run side
 * by side: the deploy runs what the person confirmed or is refused, and the app is not deleted
 * from under a run.
 */
const t = serveThisFile({ staff: { member: { name: 'Dana Deploys', role: 'admin' } } });

/** An app ready to deploy: its server has a password and a pinned key (and nothing listens). */
async function deployableApp(name: string): Promise<App> {
  const client = await t.staff.member.json<Client>('POST', '/api/clients', {
    name,
    server: {
      host: '127.0.0.1',
      port: await closedPort(),
      username: 'deploy',
      password: 'pw-1234',
    },
  });
  const servers = await t.staff.member.json<ServerList>(
    'GET',
    `/api/servers?clientId=${client.body.id}`,
  );
  const serverId = servers.body.servers[0]!.id;
  await t.server.app.parts.db.kysely
    .updateTable('server')
    .set({ hostKeyAlgorithm: 'ssh-ed25519', hostKeyFingerprint: `SHA256:${'A'.repeat(43)}` })
    .where('id', '=', serverId)
    .execute();
  const app = await t.staff.member.json<App>('POST', '/api/apps', {
    clientId: client.body.id,
    serverId,
    name,
    command: 'echo OLD',
  });
  expect(app.status).toBe(201);
  return app.body;
}

describe('a deploy and an edit of its app at once', () => {
  it('refuses the deploy when the edit commits first: it would run a command no one confirmed', async () => {
    const app = await deployableApp('Edited While Deploying');
    const colleague = await holdRow(t.server.app.parts.db.kysely, 'app', app.id, async (trx) => {
      await trx
        .updateTable('app')
        .set({ command: 'echo NEW', version: app.version + 1 })
        .where('id', '=', app.id)
        .execute();
    });
    const deploying = t.staff.member.json<{ error?: string }>('POST', `/api/apps/${app.id}/runs`, {
      version: app.version,
    });
    await expect.poll(() => lockWaiters(t.server.app.parts.db.kysely), { timeout: 10_000 }).toBe(1);
    colleague.release();
    await colleague.committed;
    const answer = await deploying;
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/changed since you confirmed it/);
  });
});

describe('deleting an app while a deploy of it is being recorded', () => {
  it('waits for the run, then refuses: the run is running', async () => {
    const app = await deployableApp('Deleted While Deploying');
    // As a deploy does now: the app's row locked, then its running run recorded.
    const deploy = await holdRow(t.server.app.parts.db.kysely, 'app', app.id, async (trx) => {
      const run = runningRunRow('postgres', {
        appId: app.id,
        clientId: app.client.id,
        serverId: app.server!.id,
        startedBy: { id: null, name: 'Dana Deploys' },
        command: 'echo OLD',
      });
      await trx.insertInto('run').values(run).execute();
    });
    const deleting = t.staff.member.json<{ error?: string }>('DELETE', `/api/apps/${app.id}`);
    await expect.poll(() => lockWaiters(t.server.app.parts.db.kysely), { timeout: 10_000 }).toBe(1);
    deploy.release();
    await deploy.committed;
    const answer = await deleting;
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/is running this app/);
  });
});
