import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

// Access by tag on the server routes: `limited` sees the servers of clients tagged 'eu' only.
const t = serveThisFile({
  staff: {
    editor: { name: 'Editor', role: 'editor' },
    limited: { name: 'Limited', role: 'editor', tags: ['eu'] },
  },
});

async function clientWithServer(name: string, tags: string[]) {
  const client = (await t.staff.editor.json<Client>('POST', '/api/clients', { name, tags })).body;
  const created = await t.staff.editor.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'staging',
    host: `${name.toLowerCase()}.example.test`,
  });
  expect(created.status).toBe(201);
  return { client, server: created.body };
}

describe('access by tag: servers', () => {
  it('lists, reads and writes only the servers of the person’s clients', async () => {
    const eu = await clientWithServer('Lisbon', ['eu']);
    const us = await clientWithServer('Denver', ['us']);

    const list = await t.staff.limited.json<ServerList>('GET', '/api/servers');
    const clients = new Set(list.body.servers.map((s) => s.client.id));
    expect(clients.has(eu.client.id)).toBe(true);
    expect(clients.has(us.client.id)).toBe(false);
    const asked = await t.staff.limited.json<ServerList>(
      'GET',
      `/api/servers?clientId=${us.client.id}`,
    );
    expect(asked.body.servers).toEqual([]);

    const id = us.server.id;
    // Valid bodies: a body that fails its schema is a 400 before any record is looked up, for a
    // hidden server as for a missing one.
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/servers/${id}`],
      ['GET', `/api/servers/${id}/history`],
      ['PUT', `/api/servers/${id}`, { label: 'x', version: 1 }],
      ['POST', `/api/servers/${id}/primary`],
      ['POST', `/api/servers/${id}/host-key`, { fingerprint: `SHA256:${'A'.repeat(43)}` }],
      ['POST', `/api/servers/${id}/check`],
      ['DELETE', `/api/servers/${id}`],
    ];
    for (const [method, url, body] of routes) {
      const answer = await t.staff.limited.json(method, url, body);
      expect({ method, url, status: answer.status }).toEqual({ method, url, status: 404 });
    }
    expect((await t.staff.editor.json('GET', `/api/servers/${id}`)).status).toBe(200);

    // A server for a client outside the tags: answered as for a client that does not exist.
    const add = (clientId: string) =>
      t.staff.limited.json('POST', '/api/servers', { clientId, label: 'extra', host: 'x.test' });
    const hidden = await add(us.client.id);
    const none = await add('noSuchClient1');
    expect(hidden.status).toBe(none.status);
    expect(hidden.body).toEqual(none.body);
    expect((await add(eu.client.id)).status).toBe(201);

    expect((await t.staff.limited.json('GET', `/api/servers/${eu.server.id}`)).status).toBe(200);
    const history = await t.staff.limited.json('GET', `/api/servers/${eu.server.id}/history`);
    expect(history.status).toBe(200);
  });
});
