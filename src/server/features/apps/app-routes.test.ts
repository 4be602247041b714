import { describe, expect, it } from 'vitest';
import type { App, AppList } from '#shared/apps.ts';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { STALE_VERSION_CODE } from '#shared/api-error.ts';

const t = serveThisFile({
  staff: { member: { name: 'Ann Apps' }, limited: { name: 'Lim Apps', tags: ['eu'] } },
});

let count = 0;
async function clientWithServer(tags: string[] = []) {
  count += 1;
  const client = await t.staff.member.json<Client>('POST', '/api/clients', {
    name: `Apps Client ${count}`,
    code: `AC${count}`,
    tags,
    server: { host: `host${count}.example.com`, uiDir: `/srv/app${count}` },
  });
  expect(client.status).toBe(201);
  const servers = await t.staff.member.json<ServerList>(
    'GET',
    `/api/servers?clientId=${client.body.id}`,
  );
  return { client: client.body, server: servers.body.servers[0]! };
}

type Answer = App & { error?: string; fields?: Record<string, string>; code?: string };

describe('apps', () => {
  it('creates an app with its defaults, shows it, edits it with its version, removes it', async () => {
    const { client, server } = await clientWithServer();
    const made = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'web',
      domains: ['https://web.example.com'],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      client: { id: client.id, name: client.name, code: client.code },
      server: { id: server.id, label: server.label, host: server.host },
      name: 'web',
      directory: '',
      effectiveDirectory: server.uiDir,
      domains: ['https://web.example.com'],
      command: null,
      effectiveCommand: t.server.config.appRunTemplate,
      lastRun: null,
      version: 1,
    });
    const read = await t.staff.member.json<App>('GET', `/api/apps/${made.body.id}`);
    expect(read.body).toEqual(made.body);

    const edited = await t.staff.member.json<Answer>('PUT', `/api/apps/${made.body.id}`, {
      name: 'web',
      serverId: server.id,
      directory: '/opt/web',
      command: 'cd {uiDir} && ./deploy.sh',
      version: 1,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      directory: '/opt/web',
      effectiveDirectory: '/opt/web',
      command: 'cd {uiDir} && ./deploy.sh',
      effectiveCommand: 'cd {uiDir} && ./deploy.sh',
      domains: [],
      version: 2,
    });
    // Saved over a newer version: refused, naming who changed it.
    const stale = await t.staff.member.json<Answer>('PUT', `/api/apps/${made.body.id}`, {
      name: 'webby',
      serverId: server.id,
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatch(/changed by .*@.* after you opened it/);
    expect(stale.body.code).toBe(STALE_VERSION_CODE);
    // A save that changes nothing writes nothing: the version stays.
    const same = await t.staff.member.json<Answer>('PUT', `/api/apps/${made.body.id}`, {
      name: 'web',
      serverId: server.id,
      directory: '/opt/web',
      command: 'cd {uiDir} && ./deploy.sh',
      version: 2,
    });
    expect(same.body.version).toBe(2);

    const removed = await t.staff.member.request('DELETE', `/api/apps/${made.body.id}`);
    expect(removed.status).toBe(204);
    expect((await t.staff.member.json('GET', `/api/apps/${made.body.id}`)).status).toBe(404);

    const history = await t.staff.member.json<ClientHistory>(
      'GET',
      `/api/clients/${client.id}/history`,
    );
    const ofApp = history.body.events.filter((e) => e.appId === made.body.id);
    expect(ofApp.map((e) => [e.kind, e.fields])).toEqual([
      ['app.deleted', []],
      ['app.updated', ['directory', 'domains', 'command']],
      ['app.created', ['name', 'server', 'domains']],
    ]);
    for (const event of ofApp)
      expect(event).toMatchObject({ clientId: client.id, serverId: server.id });
  });

  it('takes one of several saves made at once from the same version, refusing the rest', async () => {
    const { client, server } = await clientWithServer();
    const made = await t.staff.member.json<App>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'raced',
    });
    expect(made.status).toBe(201);
    // On PostgreSQL each save has its own connection: all read the version before any writes.
    for (let version = 1; version <= 3; version += 1) {
      const answers = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          t.staff.member.json<Answer>('PUT', `/api/apps/${made.body.id}`, {
            name: 'raced',
            serverId: server.id,
            directory: `/srv/round${version}/save${n}`,
            version,
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      for (const answer of answers.filter((a) => a.status === 409)) {
        expect(answer.body.code).toBe(STALE_VERSION_CODE);
      }
      const saved = answers.find((answer) => answer.status === 200)!.body;
      expect(saved.version).toBe(version + 1);
      const read = await t.staff.member.json<App>('GET', `/api/apps/${made.body.id}`);
      expect(read.body).toMatchObject({ version: version + 1, directory: saved.directory });
    }
    const history = await t.staff.member.json<ClientHistory>(
      'GET',
      `/api/clients/${client.id}/history`,
    );
    const updates = history.body.events.filter((e) => e.kind === 'app.updated');
    expect(updates).toHaveLength(3);
  });

  it("refuses a server of another client, naming serverId, and a name the client's app has", async () => {
    const { client, server } = await clientWithServer();
    const other = await clientWithServer();
    const foreign = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: client.id,
      serverId: other.server.id,
      name: 'web',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toEqual({ serverId: 'Must be a server of the same client' });

    const first = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'api',
    });
    expect(first.status).toBe(201);
    const twin = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'API',
    });
    expect(twin.status).toBe(400);
    expect(Object.keys(twin.body.fields ?? {})).toEqual(['name']);
    // Another client may have an app of that name.
    const elsewhere = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: other.client.id,
      serverId: other.server.id,
      name: 'api',
    });
    expect(elsewhere.status).toBe(201);

    const badCommand = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'bad',
      command: 'echo "{accessToken}"',
    });
    expect(badCommand.status).toBe(400);
    expect(Object.keys(badCommand.body.fields ?? {})).toEqual(['command']);
    const disguised = await t.staff.member.json<Answer>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'disguised',
      command: 'echo ok \u202e#; dm- mr {serverTag}',
    });
    expect(disguised.status).toBe(400);
    expect(disguised.body.fields).toEqual({
      command: expect.stringMatching(
        /^The command must not contain a hidden control character \(U\+202E\)/,
      ),
    });
    const moved = await t.staff.member.json<Answer>('PUT', `/api/apps/${first.body.id}`, {
      name: 'api',
      serverId: other.server.id,
      version: 1,
    });
    expect(moved.status).toBe(400);
    expect(Object.keys(moved.body.fields ?? {})).toEqual(['serverId']);
  });

  it('lists apps by client, server and search, paged on request, within the tags', async () => {
    const eu = await clientWithServer(['eu']);
    const us = await clientWithServer(['us']);
    const names = ['alpha', 'beta', 'gamma'];
    for (const name of names) {
      const made = await t.staff.member.json('POST', '/api/apps', {
        clientId: eu.client.id,
        serverId: eu.server.id,
        name,
      });
      expect(made.status).toBe(201);
    }
    await t.staff.member.json('POST', '/api/apps', {
      clientId: us.client.id,
      serverId: us.server.id,
      name: 'delta',
    });
    const ofEu = await t.staff.member.json<AppList>('GET', `/api/apps?clientId=${eu.client.id}`);
    expect(ofEu.body.apps.map((a) => a.name)).toEqual(names);
    expect(ofEu.body.nextCursor).toBeUndefined();
    const byServer = await t.staff.member.json<AppList>(
      'GET',
      `/api/apps?serverId=${us.server.id}`,
    );
    expect(byServer.body.apps.map((a) => a.name)).toEqual(['delta']);
    const searched = await t.staff.member.json<AppList>(
      'GET',
      `/api/apps?q=${encodeURIComponent(`gam ${eu.client.code}`)}`,
    );
    expect(searched.body.apps.map((a) => a.name)).toEqual(['gamma']);
    const never = await t.staff.member.json<AppList>('GET', '/api/apps?state=running');
    expect(never.body.apps).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page: { status: number; body: AppList } = await t.staff.member.json<AppList>(
        'GET',
        `/api/apps?clientId=${eu.client.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.body.apps.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.apps.map((a) => a.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(names);

    // Limited to 'eu': the eu client's apps only, and the us client's app answers 404.
    const limited = await t.staff.limited.json<AppList>('GET', '/api/apps');
    expect(new Set(limited.body.apps.map((a) => a.client.id))).toEqual(new Set([eu.client.id]));
    const usApp = byServer.body.apps[0]!;
    expect((await t.staff.limited.json('GET', `/api/apps/${usApp.id}`)).status).toBe(404);
    const put = await t.staff.limited.json('PUT', `/api/apps/${usApp.id}`, {
      name: 'x',
      serverId: us.server.id,
      version: 1,
    });
    expect(put.status).toBe(404);
    expect((await t.staff.limited.request('DELETE', `/api/apps/${usApp.id}`)).status).toBe(404);
    const create = await t.staff.limited.json<Answer>('POST', '/api/apps', {
      clientId: us.client.id,
      serverId: us.server.id,
      name: 'sneaky',
    });
    expect(create.status).toBe(400);
    expect(Object.keys(create.body.fields ?? {})).toEqual(['clientId']);
  });

  it('shows an app whose server was removed with no server, and refuses to deploy it', async () => {
    const { client } = await clientWithServer();
    const second = await t.staff.member.json<{ id: string }>('POST', '/api/servers', {
      clientId: client.id,
      label: 'second',
    });
    const made = await t.staff.member.json<App>('POST', '/api/apps', {
      clientId: client.id,
      serverId: second.body.id,
      name: 'orphan',
    });
    expect((await t.staff.member.request('DELETE', `/api/servers/${second.body.id}`)).status).toBe(
      204,
    );
    const read = await t.staff.member.json<App>('GET', `/api/apps/${made.body.id}`);
    expect(read.body).toMatchObject({ server: null, effectiveDirectory: '' });
    const run = await t.staff.member.json<{ error: string }>(
      'POST',
      `/api/apps/${made.body.id}/runs`,
    );
    expect(run.status).toBe(409);
    expect(run.body.error).toMatch(/has no server/);
  });
});
