import { describe, expect, it } from 'vitest';
import type { Client, ClientCommand } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { STALE_VERSION_CODE } from '#shared/api-error.ts';

const t = serveThisFile({
  env: { DEPLOY_COMMAND_TEMPLATE: 'deploy --to {serverLabel} --host {host} --dir {uiDir}' },
  staff: { member: { name: 'Wes Writes' } },
});

type Answer<T> = {
  status: number;
  body: T & { error?: string; fields?: Record<string, string>; code?: string };
};

function send<T = Server>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
  return t.staff.member.json(method, url, body);
}

/** A client made by its form, with the form's password: its primary server is 'main'. */
async function addClient(name: string): Promise<{ client: Client; main: Server }> {
  const { status, body: client } = await send<Client>('POST', '/api/clients', {
    name,
    code: 'C',
    server: { host: 'main.example.com', username: 'deploy', password: 'form password 123' },
  });
  expect(status).toBe(201);
  const list = await send<ServerList>('GET', `/api/servers?clientId=${client.id}`);
  return { client, main: list.body.servers[0]! };
}

async function clientVersion(id: string): Promise<number> {
  return (await send<Client>('GET', `/api/clients/${id}`)).body.version;
}

/** The event rows of a server, newest first, straight from the table. */
async function eventRows(serverId: string) {
  return t.server.app.parts.db.kysely
    .selectFrom('event')
    .selectAll()
    .where('serverId', '=', serverId)
    .orderBy('seq', 'desc')
    .execute();
}

async function addServer(clientId: string, fields: Record<string, unknown>) {
  return send('POST', '/api/servers', { clientId, ...fields });
}

describe('POST /api/servers', () => {
  it('adds a server after the last, with its event naming the fields set', async () => {
    const { client, main } = await addClient('Adding Servers');
    const { status, body } = await addServer(client.id, {
      label: 'staging',
      host: 'staging.example.com',
      port: 2222,
      username: 'ops',
      credentialId: main.credential!.id,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      client: { id: client.id },
      primary: false,
      label: 'staging',
      host: 'staging.example.com',
      port: 2222,
      username: 'ops',
      uiDir: '',
      private: true,
      credential: { id: main.credential!.id, kind: 'password' },
      status: 'not_checked',
      version: 1,
    });
    const list = await send<ServerList>('GET', `/api/servers?clientId=${client.id}`);
    expect(list.body.servers.map((s) => s.label)).toEqual(['main', 'staging']);
    // Not the primary: the client and its panel's server did not change.
    expect(await clientVersion(client.id)).toBe(client.version);

    const [event, ...older] = await eventRows(body.id);
    expect(older).toEqual([]);
    expect(event).toMatchObject({ kind: 'server.created', clientId: client.id });
    // Written by the same transaction, at the same moment as the row.
    expect(new Date(event!.at).toISOString()).toBe(body.createdAt);
    expect(JSON.parse(event!.fields)).toEqual(['label', 'host', 'port', 'username', 'credential']);
    expect(JSON.stringify(event)).not.toContain('staging.example.com');
  });

  it("makes a client's only server its primary, and raises the client's version", async () => {
    const { client, main } = await addClient('Serverless');
    expect((await send('DELETE', `/api/servers/${main.id}`)).status).toBe(204);
    const after = await send<Client>('GET', `/api/clients/${client.id}`);
    expect(after.body.server).toMatchObject({ host: '', hasPassword: false });

    const { body } = await addServer(client.id, { label: 'new', host: 'new.example.com' });
    expect(body.primary).toBe(true);
    const now = await send<Client>('GET', `/api/clients/${client.id}`);
    expect(now.body.version).toBe(after.body.version + 1);
    expect(now.body.server.host).toBe('new.example.com');
  });

  it('gives servers added at once distinct positions and one primary', async () => {
    const { client, main } = await addClient('Racing Servers');
    await send('DELETE', `/api/servers/${main.id}`);
    const labels = ['one', 'two', 'three', 'four', 'five', 'six'];
    const added = await Promise.all(labels.map((label) => addServer(client.id, { label })));
    expect(added.map((a) => a.status)).toEqual(labels.map(() => 201));
    const rows = await t.server.app.parts.db.kysely
      .selectFrom('server')
      .select(['id', 'position'])
      .where('clientId', '=', client.id)
      .orderBy('position')
      .execute();
    expect(rows.map((row) => row.position)).toEqual([0, 1, 2, 3, 4, 5]);
    const list = (await send<ServerList>('GET', `/api/servers?clientId=${client.id}`)).body;
    expect(list.servers.filter((s) => s.primary)).toHaveLength(1);
    expect(added.filter((a) => a.body.primary)).toHaveLength(1);
  });

  it('refuses a bad body naming the field, and writes nothing', async () => {
    const { client } = await addClient('Refusing Servers');
    const before = await t.server.app.parts.db.kysely
      .selectFrom('event')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const [fields, field] of [
      [{ label: 'MAIN' }, 'label'],
      [{ label: '-main' }, 'label'],
      [{ label: '' }, 'label'],
      [{ label: 'x', host: '-oProxyCommand=touch' }, 'host'],
      [{ label: 'x', host: 'a\u0007b' }, 'host'],
      [{ label: 'x', username: '-l' }, 'username'],
      [{ label: 'x', port: 0 }, 'port'],
      [{ label: 'x', credentialId: 'noSuchCredential' }, 'credentialId'],
    ] as const) {
      const { status, body } = await addServer(client.id, fields);
      expect(status, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(body.fields ?? {}), JSON.stringify(fields)).toEqual([field]);
    }
    const unknown = await addServer('noSuchClient', { label: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toHaveProperty('clientId');

    const list = await send<ServerList>('GET', `/api/servers?clientId=${client.id}`);
    expect(list.body.servers).toHaveLength(1);
    const after = await t.server.app.parts.db.kysely
      .selectFrom('event')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('PUT /api/servers/:id', () => {
  it('saves the changed fields, unpins the host key of a moved server, raises the client', async () => {
    const { client, main } = await addClient('Editing Servers');
    await t.server.app.parts.db.kysely
      .updateTable('server')
      .set({
        hostKeyAlgorithm: 'ssh-ed25519',
        hostKeyFingerprint: `SHA256:${'A'.repeat(43)}`,
        checkStatus: 'reachable',
      })
      .where('id', '=', main.id)
      .execute();
    const { status, body } = await send('PUT', `/api/servers/${main.id}`, {
      label: 'production',
      host: 'moved.example.com',
      username: 'deploy',
      credentialId: main.credential!.id,
      version: 1,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      label: 'production',
      host: 'moved.example.com',
      hostKey: null,
      status: 'not_checked',
      version: 2,
    });
    const [event] = await eventRows(main.id);
    expect(event).toMatchObject({ kind: 'server.updated', clientId: client.id });
    expect(JSON.parse(event!.fields)).toEqual(['label', 'host']);

    // The primary server: an edit form of the client opened before must not save over it.
    expect(await clientVersion(client.id)).toBe(client.version + 1);
    const stale = await send<Client>('PUT', `/api/clients/${client.id}`, {
      name: client.name,
      server: { host: 'main.example.com' },
      version: client.version,
    });
    expect(stale.status).toBe(409);
  });

  it('keeps the pinned key when the host stays, and writes nothing for an unchanged save', async () => {
    const { client, main } = await addClient('Unchanged Servers');
    const key = { algorithm: 'ssh-ed25519', fingerprint: `SHA256:${'B'.repeat(43)}` };
    await t.server.app.parts.db.kysely
      .updateTable('server')
      .set({ hostKeyAlgorithm: key.algorithm, hostKeyFingerprint: key.fingerprint })
      .where('id', '=', main.id)
      .execute();
    const same = {
      label: 'main',
      host: main.host,
      username: main.username,
      credentialId: main.credential!.id,
    };
    const unchanged = await send('PUT', `/api/servers/${main.id}`, { ...same, version: 1 });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.version).toBe(1);
    expect(await eventRows(main.id)).toEqual([]);
    expect(await clientVersion(client.id)).toBe(client.version);

    const renamed = await send('PUT', `/api/servers/${main.id}`, {
      ...same,
      uiDir: '/srv/ui',
      private: false,
      credentialId: null,
      version: 1,
    });
    expect(renamed.body).toMatchObject({ hostKey: key, credential: null, version: 2 });
    expect(JSON.parse((await eventRows(main.id))[0]!.fields)).toEqual([
      'uiDir',
      'private',
      'credential',
    ]);
  });

  it('answers 409 for a stale version, 404 for an unknown server, 400 naming the label', async () => {
    const { client, main } = await addClient('Stale Servers');
    await addServer(client.id, { label: 'staging' });
    const first = await send('PUT', `/api/servers/${main.id}`, { label: 'one', version: 1 });
    expect(first.status).toBe(200);
    const stale = await send('PUT', `/api/servers/${main.id}`, { label: 'two', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(
      'This server was changed by ' +
        `${(await send<{ email: string }>('GET', '/api/me')).body.email} after you opened it. ` +
        'Your changes were not saved: reload it and edit again.',
    );
    expect(stale.body.code).toBe(STALE_VERSION_CODE);
    const taken = await send('PUT', `/api/servers/${main.id}`, { label: 'Staging', version: 2 });
    expect(taken.status).toBe(400);
    expect(taken.body.fields).toEqual({ label: expect.any(String) });
    const missing = await send('PUT', '/api/servers/noSuchServer', { label: 'x', version: 1 });
    expect(missing.status).toBe(404);
  });
});

describe('DELETE /api/servers/:id and POST /api/servers/:id/primary', () => {
  it('passes the primary on, keeps the vault credential, and records both', async () => {
    const { client, main } = await addClient('Primary Servers');
    const staging = (await addServer(client.id, { label: 'staging', host: 'st.example.com' })).body;
    const backup = (await addServer(client.id, { label: 'backup', host: 'bk.example.com' })).body;

    const made = await send('POST', `/api/servers/${staging.id}/primary`);
    expect(made.status).toBe(200);
    expect(made.body.primary).toBe(true);
    expect(await clientVersion(client.id)).toBe(client.version + 1);
    expect((await send<Client>('GET', `/api/clients/${client.id}`)).body.server.host).toBe(
      'st.example.com',
    );
    expect(await eventRows(staging.id)).toMatchObject([
      { kind: 'server.made_primary', clientId: client.id },
      { kind: 'server.created' },
    ]);
    // Already the primary: nothing written.
    expect((await send('POST', `/api/servers/${staging.id}/primary`)).status).toBe(200);
    expect(await eventRows(staging.id)).toHaveLength(2);
    expect(await clientVersion(client.id)).toBe(client.version + 1);

    expect((await send('DELETE', `/api/servers/${staging.id}`)).status).toBe(204);
    expect((await send('GET', `/api/servers/${staging.id}`)).status).toBe(404);
    expect(await clientVersion(client.id)).toBe(client.version + 2);
    const left = (await send<ServerList>('GET', `/api/servers?clientId=${client.id}`)).body;
    expect(left.servers.map((s) => [s.label, s.primary])).toEqual([
      ['main', true],
      ['backup', false],
    ]);
    expect((await eventRows(staging.id))[0]).toMatchObject({ kind: 'server.deleted' });

    // A server that is not the primary goes without touching the client.
    expect((await send('DELETE', `/api/servers/${backup.id}`)).status).toBe(204);
    expect(await clientVersion(client.id)).toBe(client.version + 2);
    // The form's password credential stays in the vault when its server goes.
    expect((await send('DELETE', `/api/servers/${main.id}`)).status).toBe(204);
    const kept = await t.server.app.parts.db.kysely
      .selectFrom('credential')
      .select('id')
      .where('id', '=', main.credential!.id)
      .executeTakeFirst();
    expect(kept).toBeDefined();
    expect((await send('DELETE', `/api/servers/${main.id}`)).status).toBe(404);
    expect((await send('POST', `/api/servers/${main.id}/primary`)).status).toBe(404);
  });
});

describe('POST /api/servers/:id/host-key', () => {
  const pinned = { algorithm: 'ssh-ed25519', fingerprint: `SHA256:${'P'.repeat(43)}` };
  const offered = { algorithm: 'ssh-rsa', fingerprint: `SHA256:${'Q'.repeat(43)}` };

  it('pins the offered key the person saw, and only that one', async () => {
    const { client, main } = await addClient('Host Keys');
    const accept = (fingerprint: string) =>
      send('POST', `/api/servers/${main.id}/host-key`, { fingerprint });
    const nothing = await accept(offered.fingerprint);
    expect(nothing.status).toBe(400);
    expect(nothing.body.error).toMatch(/^Nothing to accept/);

    await t.server.app.parts.db.kysely
      .updateTable('server')
      .set({
        hostKeyAlgorithm: pinned.algorithm,
        hostKeyFingerprint: pinned.fingerprint,
        offeredHostKeyAlgorithm: offered.algorithm,
        offeredHostKeyFingerprint: offered.fingerprint,
        checkStatus: 'host_key_changed',
        checkReason: 'host key changed',
      })
      .where('id', '=', main.id)
      .execute();
    const other = await accept(`SHA256:${'R'.repeat(43)}`);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('The server now offers a different key: check it again');
    const bad = await accept('SHA256:short');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('fingerprint');

    const { status, body } = await accept(offered.fingerprint);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      hostKey: offered,
      offeredHostKey: null,
      status: 'not_checked',
      reason: null,
      version: 1,
    });
    expect(body.statusSince).not.toBeNull();
    expect(await clientVersion(client.id)).toBe(client.version);
    const [event] = await eventRows(main.id);
    expect(event).toMatchObject({ kind: 'server.host_key_accepted', clientId: client.id });
    expect(JSON.parse(event!.fields)).toEqual(['hostKey']);
    expect(JSON.stringify(event)).not.toContain('QQQQ');
    expect((await accept(offered.fingerprint)).status).toBe(400);
  });
});

describe('GET /api/servers/:id/history', () => {
  it("is the server's events, newest first, also once it is removed", async () => {
    const { client } = await addClient('History Servers');
    const { body: server } = await addServer(client.id, { label: 'staging' });
    await send('PUT', `/api/servers/${server.id}`, { label: 'stage', version: 1 });
    await send('POST', `/api/servers/${server.id}/primary`);
    const history = await send<ClientHistory>('GET', `/api/servers/${server.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.events.map((e) => [e.kind, e.serverId, e.fields])).toEqual([
      ['server.made_primary', server.id, ['primary']],
      ['server.updated', server.id, ['label']],
      ['server.created', server.id, ['label']],
    ]);
    expect(history.body.events[0]!.actor.name).toMatch(/@/);

    await send('DELETE', `/api/servers/${server.id}`);
    const after = await send<ClientHistory>('GET', `/api/servers/${server.id}/history`);
    expect(after.body.events.map((e) => e.kind)[0]).toBe('server.deleted');
    expect((await send('GET', '/api/servers/noSuchServer/history')).status).toBe(404);
  });
});

describe('GET /api/clients/:id/commands?serverId=', () => {
  type Commands = { commands: ClientCommand[] };

  it("builds the commands for the server asked for, with its label, or the primary's", async () => {
    const { client } = await addClient('Command Servers');
    const { body: staging } = await addServer(client.id, {
      label: 'staging',
      host: 'st.example.com',
      port: 2201,
      username: 'ops',
      uiDir: '/srv/my ui',
    });
    const primary = await send<Commands>('GET', `/api/clients/${client.id}/commands`);
    expect(primary.body.commands.map((c) => c.command)).toEqual([
      "deploy --to main --host main.example.com --dir ''",
      'ssh -p 22 deploy@main.example.com',
    ]);
    const picked = await send<Commands>(
      'GET',
      `/api/clients/${client.id}/commands?serverId=${staging.id}`,
    );
    expect(picked.status).toBe(200);
    expect(picked.body.commands.map((c) => c.command)).toEqual([
      "deploy --to staging --host st.example.com --dir '/srv/my ui'",
      'ssh -p 2201 ops@st.example.com',
    ]);

    const { main: foreign } = await addClient('Other Command Client');
    for (const serverId of [foreign.id, 'noSuchServer', '-bad id-']) {
      const refused = await send<Commands>(
        'GET',
        `/api/clients/${client.id}/commands?serverId=${encodeURIComponent(serverId)}`,
      );
      expect(refused.status, serverId).toBe(400);
      expect(refused.body.fields, serverId).toHaveProperty('serverId');
    }
  });
});
