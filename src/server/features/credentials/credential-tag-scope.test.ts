import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Credential, CredentialList } from '#shared/credentials.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import type { Session } from '#server/testing/test-server.ts';

// Access by tag in the vault: `limited` (tag 'eu') sees a credential used by a server of an
// 'eu' client, or used by none that they made and nobody else changed; it lists only the
// servers they can see.
const t = serveThisFile({
  staff: {
    editor: { name: 'Editor', role: 'editor' },
    limited: { name: 'Limited', role: 'editor', tags: ['eu'] },
  },
});

async function token(name: string, by: Session = t.staff.editor): Promise<Credential> {
  const { status, body } = await by.json<Credential>('POST', '/api/credentials', {
    name,
    kind: 'token',
    secret: `secret of ${name}`,
  });
  expect(status).toBe(201);
  return body;
}

async function seenByLimited(id: string): Promise<boolean> {
  const list = await t.staff.limited.json<CredentialList>('GET', '/api/credentials');
  const one = await t.staff.limited.json('GET', `/api/credentials/${id}`);
  const listed = list.body.credentials.some((c) => c.id === id);
  expect(one.status === 200).toBe(listed);
  return listed;
}

async function clientUsing(name: string, tags: string[], credentialId: string) {
  const client = (await t.staff.editor.json<Client>('POST', '/api/clients', { name, tags })).body;
  const server = await t.staff.editor.json('POST', '/api/servers', {
    clientId: client.id,
    label: 'deploy',
    host: `${name.toLowerCase()}.example.test`,
    credentialId,
  });
  expect(server.status).toBe(201);
  return client;
}

/** The limited person restores the client: the credential its 'deploy' server came back with. */
async function restoredByLimited(clientId: string) {
  const restored = await t.staff.limited.json('POST', `/api/clients/${clientId}/restore`, {});
  expect(restored.status).toBe(200);
  const servers = await t.staff.limited.json<ServerList>(
    'GET',
    `/api/servers?clientId=${clientId}`,
  );
  return servers.body.servers.find((server) => server.label === 'deploy')?.credential;
}

describe('access by tag: credentials', () => {
  it('shows only credentials of the person’s servers, or of none, and hides the rest', async () => {
    const theirs = await token('US only token');
    const shared = await token('Shared token');
    const unused = await token('Unused token');
    const own = await token('Their own token', t.staff.limited);
    await clientUsing('Oslo', ['eu'], shared.id);
    const hiddenClient = await clientUsing('Austin', ['us'], shared.id);
    await clientUsing('Phoenix', ['us'], theirs.id);

    const list = await t.staff.limited.json<CredentialList>('GET', '/api/credentials');
    const byId = new Map(list.body.credentials.map((c) => [c.id, c]));
    expect(byId.has(theirs.id)).toBe(false);
    expect(byId.has(unused.id)).toBe(false);
    expect(byId.has(own.id)).toBe(true);
    expect(byId.get(shared.id)!.servers.map((s) => s.client.name)).toEqual(['Oslo']);
    expect(JSON.stringify(list.body)).not.toContain(hiddenClient.id);
    const one = await t.staff.limited.json<Credential>('GET', `/api/credentials/${shared.id}`);
    expect(one.body.servers.map((s) => s.client.name)).toEqual(['Oslo']);

    const routes: [string, string, unknown?][] = [
      ['GET', `/api/credentials/${theirs.id}`],
      ['PUT', `/api/credentials/${theirs.id}`, { name: 'Renamed', version: 1 }],
      ['POST', `/api/credentials/${theirs.id}/rotate`, { version: 1, secret: 'new-secret' }],
      ['POST', `/api/credentials/${theirs.id}/reveal`, {}],
      ['DELETE', `/api/credentials/${theirs.id}`],
    ];
    for (const [method, url, body] of routes) {
      const answer = await t.staff.limited.json(method, url, body);
      expect({ method, url, status: answer.status }).toEqual({ method, url, status: 404 });
    }
    const revealed = await t.staff.limited.json('POST', `/api/credentials/${shared.id}/reveal`, {});
    expect(revealed.body).toEqual({ secret: 'secret of Shared token', passphrase: null });

    // Still in use: the refusal counts the servers they cannot see, never names them.
    const inUse = await t.staff.limited.json<{ error: string }>(
      'DELETE',
      `/api/credentials/${shared.id}`,
    );
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toContain('Used by 2 servers');
    expect(inUse.body.error).toContain('Oslo');
    expect(inUse.body.error).not.toContain('Austin');

    // A server of theirs may not take a credential they cannot see.
    const mine = (
      await t.staff.limited.json<Client>('POST', '/api/clients', { name: 'Mine', tags: ['eu'] })
    ).body;
    const add = (credentialId: string) =>
      t.staff.limited.json('POST', '/api/servers', {
        clientId: mine.id,
        label: 'with key',
        host: 'mine.example.test',
        credentialId,
      });
    const hidden = await add(theirs.id);
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual((await add('noSuchCredential1')).body);
    expect((await add(unused.id)).body).toEqual(hidden.body);
    expect((await add(own.id)).status).toBe(201);
  });

  it('keeps a hidden client’s password hidden once its server is removed or the client deleted', async () => {
    const made = async (name: string) => {
      const client = await t.staff.editor.json<Client>('POST', '/api/clients', {
        name,
        tags: ['us'],
        server: { host: `${name.toLowerCase()}.example.test`, password: `password of ${name}` },
      });
      expect(client.status).toBe(201);
      const servers = await t.staff.editor.json<ServerList>(
        'GET',
        `/api/servers?clientId=${client.body.id}`,
      );
      return { client: client.body, server: servers.body.servers[0]! };
    };
    const deleted = await made('Dallas');
    const removed = await made('Denver');
    const passwords = [deleted.server.credential!.id, removed.server.credential!.id];
    expect((await t.staff.editor.json('DELETE', `/api/clients/${deleted.client.id}`)).status).toBe(
      204,
    );
    const second = await t.staff.editor.json('POST', '/api/servers', {
      clientId: removed.client.id,
      label: 'second',
    });
    expect(second.status).toBe(201);
    await t.staff.editor.json('POST', `/api/servers/${(second.body as Server).id}/primary`, {});
    expect((await t.staff.editor.json('DELETE', `/api/servers/${removed.server.id}`)).status).toBe(
      204,
    );
    for (const id of passwords) {
      expect(await seenByLimited(id)).toBe(false);
      const reveal = await t.staff.limited.json('POST', `/api/credentials/${id}/reveal`, {});
      expect(reveal.status).toBe(404);
    }
    const list = await t.staff.limited.json('GET', '/api/credentials');
    expect(JSON.stringify(list.body)).not.toMatch(/Dallas|Denver/);
  });

  it('restores a deleted client’s server without a credential given to a hidden client since', async () => {
    const moved = await token('Moved on token');
    const bergen = await clientUsing('Bergen', ['eu'], moved.id);
    expect(await seenByLimited(moved.id)).toBe(true);
    expect((await t.staff.editor.json('DELETE', `/api/clients/${bergen.id}`)).status).toBe(204);
    // Unused now, it goes to a client out of their reach with that client's secret.
    await clientUsing('Tulsa', ['us'], moved.id);
    const rotated = await t.staff.editor.json('POST', `/api/credentials/${moved.id}/rotate`, {
      version: moved.version,
      secret: 'the secret of Tulsa',
    });
    expect(rotated.status).toBe(200);

    expect(await restoredByLimited(bergen.id)).toBeNull();
    expect(await seenByLimited(moved.id)).toBe(false);
    const reveal = await t.staff.limited.json('POST', `/api/credentials/${moved.id}/reveal`, {});
    expect(reveal.status).toBe(404);
    expect(JSON.stringify(reveal.body)).not.toContain('the secret of Tulsa');
  });

  it('undoes a delete with the credential the server had, when nobody changed it since', async () => {
    const kept = await token('Kept token');
    const alta = await clientUsing('Alta', ['eu'], kept.id);
    expect((await t.staff.limited.json('DELETE', `/api/clients/${alta.id}`)).status).toBe(204);
    expect(await seenByLimited(kept.id)).toBe(false);
    expect((await restoredByLimited(alta.id))?.id).toBe(kept.id);
    const reveal = await t.staff.limited.json('POST', `/api/credentials/${kept.id}/reveal`, {});
    expect(reveal.body).toEqual({ secret: 'secret of Kept token', passphrase: null });
  });

  it('hides their own unused credential once someone else changes it', async () => {
    const own = await token('Theirs, then rotated', t.staff.limited);
    expect(await seenByLimited(own.id)).toBe(true);
    const rotated = await t.staff.editor.json('POST', `/api/credentials/${own.id}/rotate`, {
      version: own.version,
      secret: 'a secret that is no longer only theirs',
    });
    expect(rotated.status).toBe(200);
    expect(await seenByLimited(own.id)).toBe(false);
  });
});
