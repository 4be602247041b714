import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile({ staff: { member: { name: 'Sam Servers' } } });

async function addClient(name: string, server: Record<string, unknown>): Promise<Client> {
  const { status, body } = await t.staff.member.json<Client>('POST', '/api/clients', {
    name,
    code: name.slice(0, 3).toUpperCase(),
    server,
  });
  expect(status).toBe(201);
  return body;
}

async function serversOf(query: string): Promise<Server[]> {
  const { status, body } = await t.staff.member.json<ServerList>('GET', `/api/servers${query}`);
  expect(status).toBe(200);
  return body.servers;
}

describe('GET /api/servers', () => {
  it("lists each client's server with its client and credential, never the secret", async () => {
    const acme = await addClient('Acme Servers', {
      host: 'acme.example.com',
      port: 2222,
      username: 'deploy',
      password: 'acme server password',
      uiDir: '/srv/acme',
    });
    const bare = await addClient('Bare Servers', { host: 'bare.example.com' });

    const [server] = await serversOf(`?clientId=${acme.id}`);
    expect(server).toMatchObject({
      client: { id: acme.id, name: 'Acme Servers', code: 'ACM' },
      primary: true,
      label: 'main',
      host: 'acme.example.com',
      port: 2222,
      username: 'deploy',
      uiDir: '/srv/acme',
      private: true,
      credential: { name: 'Password of Acme Servers (ACM)', kind: 'password' },
      hostKey: null,
      status: 'not_checked',
      reason: null,
      checkedAt: null,
      version: 1,
    });
    const { body: raw } = await t.staff.member
      .request('GET', `/api/servers/${server!.id}`)
      .then(async (response) => ({ body: await response.text() }));
    expect(raw).not.toContain('acme server password');
    expect(JSON.parse(raw)).toEqual(server);

    const [plain] = await serversOf(`?clientId=${bare.id}`);
    expect(plain).toMatchObject({ host: 'bare.example.com', port: 22, credential: null });
    const all = await serversOf('');
    expect(all.map((s) => s.client.id)).toEqual(expect.arrayContaining([acme.id, bare.id]));
  });

  it('finds by label, host, user or client, ignoring case and accents, and by status', async () => {
    const client = await addClient('Zürich Hosting', { host: 'zh-1.example.net', username: 'ops' });
    const found = (q: string) =>
      serversOf(`?q=${encodeURIComponent(q)}`).then((list) => list.map((s) => s.client.id));
    expect(await found('zurich')).toEqual([client.id]);
    expect(await found('ZH-1 ops')).toEqual([client.id]);
    // Words in quotes are one term, as in the client list's search box.
    expect(await found('"zurich hosting"')).toEqual([client.id]);
    expect(await found('"hosting zurich"')).toEqual([]);
    expect(await found('zurich nothing-like-this')).toEqual([]);
    expect((await serversOf('?status=not_checked')).map((s) => s.client.id)).toContain(client.id);
    expect(await serversOf('?status=reachable')).toEqual([]);
  });

  it('follows the client form: an edit changes the server, a delete removes it, undo brings it back', async () => {
    const client = await addClient('Moving Servers', { host: 'old.example.com' });
    const [before] = await serversOf(`?clientId=${client.id}`);
    const edited = await t.staff.member.json<Client>('PUT', `/api/clients/${client.id}`, {
      name: 'Moving Servers',
      server: { host: 'new.example.com' },
      version: client.version,
    });
    expect(edited.status).toBe(200);
    const [after] = await serversOf(`?clientId=${client.id}`);
    expect(after).toMatchObject({ id: before!.id, host: 'new.example.com', version: 2 });

    expect((await t.staff.member.request('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
    expect(await serversOf(`?clientId=${client.id}`)).toEqual([]);
    expect((await t.staff.member.json('GET', `/api/servers/${before!.id}`)).status).toBe(404);
    expect((await t.staff.member.json('POST', `/api/clients/${client.id}/restore`)).status).toBe(
      200,
    );
    expect(await serversOf(`?clientId=${client.id}`)).toEqual([after]);
  });

  it.each([
    ['nothing', {}, 1],
    ['the host', { host: 'other.example.com' }, 2],
    ['the port', { port: 2200 }, 2],
    ['the username', { username: 'ops' }, 2],
    ['the uiDir', { uiDir: '/srv/other' }, 2],
    ['private', { private: false }, 2],
  ])('changes the server when the client form changes %s of it', async (_, change, version) => {
    const details = { host: 'same.example.com', port: 22, username: 'deploy', uiDir: '/srv/ui' };
    const client = await addClient('Form Details', { ...details, password: 'first password' });
    const edited = await t.staff.member.json<Client>('PUT', `/api/clients/${client.id}`, {
      name: 'Form Details, renamed',
      server: { ...details, ...change },
      version: client.version,
    });
    expect(edited.status).toBe(200);
    const [server] = await serversOf(`?clientId=${client.id}`);
    expect(server).toMatchObject({ ...details, ...change, version });
  });

  it('forgets the pinned and the offered host key when the client form moves the server', async () => {
    const client = await addClient('Moved Keys', { host: 'before.example.com' });
    const [server] = await serversOf(`?clientId=${client.id}`);
    await t.server.app.parts.db.kysely
      .updateTable('server')
      .set({
        hostKeyAlgorithm: 'ssh-ed25519',
        hostKeyFingerprint: `SHA256:${'K'.repeat(43)}`,
        offeredHostKeyAlgorithm: 'ssh-ed25519',
        offeredHostKeyFingerprint: `SHA256:${'L'.repeat(43)}`,
        checkStatus: 'host_key_changed',
      })
      .where('id', '=', server!.id)
      .execute();
    const edited = await t.staff.member.json<Client>('PUT', `/api/clients/${client.id}`, {
      name: 'Moved Keys',
      server: { host: 'after.example.com' },
      version: client.version,
    });
    expect(edited.status).toBe(200);
    const [after] = await serversOf(`?clientId=${client.id}`);
    expect(after).toMatchObject({ hostKey: null, offeredHostKey: null, status: 'not_checked' });
  });

  it('names the bad parameter', async () => {
    const status = await t.staff.member.json<{ error: string }>('GET', '/api/servers?status=fine');
    expect(status.status).toBe(400);
    expect(status.body.error).toMatch(/status/);
    const id = await t.staff.member.json<{ error: string }>('GET', '/api/servers/not%20an%20id');
    expect(id.status).toBe(400);
    expect(id.body.error).toMatch(/id/);
    expect((await t.staff.member.json('GET', '/api/servers/unknownServerId1')).status).toBe(404);
  });
});
