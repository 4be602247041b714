import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { App } from '#shared/apps.ts';
import type { Client } from '#shared/clients.ts';
import type { ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { closedPort } from '#server/testing/free-port.ts';
import { runningRunRow } from '#server/testing/app-records.ts';

/**
 * A deploy starting while its app is edited or deleted, on PostgreSQL, where the two run side
 * by side: the deploy runs what the person confirmed or is refused, and the app is not deleted
 * from under a run.
 */
const t = serveThisFile({ staff: { member: { name: 'Dana Deploys', role: 'admin' } } });

/** Transactions of this database waiting for a lock: a positive sign that a write blocks. */
async function lockWaiters(): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from pg_stat_activity
    where wait_event_type = 'Lock' and datname = current_database()`.execute(
    t.server.app.parts.db.kysely,
  );
  return Number(rows[0]!.n);
}

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

/**
 * Holds the app's row lock in a transaction of its own, as a colleague's write does, runs
 * `meanwhile` in it when `release` is called; `committed` resolves when it ends.
 */
async function holdApp(
  appId: string,
  meanwhile: (trx: typeof t.server.app.parts.db.kysely) => Promise<void>,
) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const committed = t.server.app.parts.db.kysely.transaction().execute(async (trx) => {
    await trx.selectFrom('app').select('id').where('id', '=', appId).forUpdate().execute();
    locked();
    await released;
    await meanwhile(trx);
  });
  await isLocked;
  return { release, committed };
}

describe('a deploy and an edit of its app at once', () => {
  it('refuses the deploy when the edit commits first: it would run a command no one confirmed', async () => {
    const app = await deployableApp('Edited While Deploying');
    const colleague = await holdApp(app.id, async (trx) => {
      await trx
        .updateTable('app')
        .set({ command: 'echo NEW', version: app.version + 1 })
        .where('id', '=', app.id)
        .execute();
    });
    const deploying = t.staff.member.json<{ error?: string }>('POST', `/api/apps/${app.id}/runs`, {
      version: app.version,
    });
    await expect.poll(lockWaiters, { timeout: 10_000 }).toBe(1);
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
    const deploy = await holdApp(app.id, async (trx) => {
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
    await expect.poll(lockWaiters, { timeout: 10_000 }).toBe(1);
    deploy.release();
    await deploy.committed;
    const answer = await deleting;
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/is running this app/);
  });
});
