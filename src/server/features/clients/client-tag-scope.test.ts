import { describe, expect, it } from 'vitest';
import type { Client, ClientList, ClientSummaryList } from '#shared/clients.ts';
import type { Credential, CredentialSecret } from '#shared/credentials.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { copyGivenTags } from '#server/testing/client-copies.ts';

// Access by tag on the client routes: `limited` sees only clients tagged 'eu' (or 'shared'),
// `editor` sees every client. A client outside the limit answers as one that does not exist.
const t = serveThisFile({
  staff: {
    admin: { name: 'Admin' },
    editor: { name: 'Editor', role: 'editor' },
    limited: { name: 'Limited', role: 'editor', tags: ['eu', 'shared'] },
  },
});

async function create(name: string, tags: string[]): Promise<Client> {
  const { status, body } = await t.staff.editor.json<Client>('POST', '/api/clients', {
    name,
    tags,
    server: { host: `${name.toLowerCase().replace(/\W+/g, '-')}.example.test`, password: 'pw-1' },
  });
  expect(status).toBe(201);
  return body;
}

describe('access by tag: clients', () => {
  it('lists and searches only the clients carrying one of the person’s tags', async () => {
    const eu = await create('Scope Berlin', ['eu']);
    const us = await create('Scope Boston', ['us']);
    const both = await create('Scope Both', ['us', 'shared']);

    const limited = await t.staff.limited.json<ClientList>('GET', '/api/clients');
    const ids = limited.body.clients.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([eu.id, both.id]));
    expect(ids).not.toContain(us.id);
    const summary = await t.staff.limited.json<ClientSummaryList>(
      'GET',
      '/api/clients?view=summary',
    );
    expect(summary.body.clients.map((c) => c.id)).not.toContain(us.id);
    const found = await t.staff.limited.json<ClientList>('GET', '/api/clients?q=Scope');
    expect(found.body.clients.map((c) => c.id).sort()).toEqual([eu.id, both.id].sort());

    const all = await t.staff.editor.json<ClientList>('GET', '/api/clients?q=Scope');
    expect(all.body.clients).toHaveLength(3);
  });

  it('gives each tag set its own ETag, so a cached list never crosses over', async () => {
    await create('Scope Etag', ['us']);
    const editor = await t.staff.editor.request('GET', '/api/clients?view=summary');
    const limited = await t.staff.limited.request('GET', '/api/clients?view=summary');
    const editorTag = editor.headers.get('etag')!;
    const limitedTag = limited.headers.get('etag')!;
    expect(limitedTag).not.toBe(editorTag);
    // The editor's ETag is no use to the limited person: a full answer, their own list.
    const again = await t.staff.limited.request('GET', '/api/clients?view=summary', undefined, {
      'if-none-match': editorTag,
    });
    expect(again.status).toBe(200);
    const same = await t.staff.limited.request('GET', '/api/clients?view=summary', undefined, {
      'if-none-match': limitedTag,
    });
    expect(same.status).toBe(304);
  });

  it('keeps the limited person’s ETag through changes to clients they cannot see', async () => {
    const seen = await create('Scope Quiet Seen', ['eu']);
    const hidden = await create('Scope Quiet Hidden', ['us']);
    const paths = ['/api/clients', '/api/clients?view=summary'];
    const before = await Promise.all(
      paths.map(async (path) => (await t.staff.limited.request('GET', path)).headers.get('etag')!),
    );
    const ask = (path: string, etag: string) =>
      t.staff.limited.request('GET', path, undefined, { 'if-none-match': etag });

    const renamed = await t.staff.editor.json('PUT', `/api/clients/${hidden.id}`, {
      name: 'Scope Quiet Hidden Renamed',
      tags: ['us'],
      version: hidden.version,
    });
    expect(renamed.status).toBe(200);
    expect((await create('Scope Quiet Another', ['us'])).id).toBeTruthy();
    // Everyone else's list changed; theirs did not, and nothing tells them otherwise.
    for (const [index, path] of paths.entries()) {
      expect((await ask(path, before[index]!)).status).toBe(304);
      expect((await t.staff.editor.request('GET', path)).headers.get('etag')).not.toBe(
        before[index],
      );
    }

    const visible = await t.staff.editor.json('PUT', `/api/clients/${seen.id}`, {
      name: 'Scope Quiet Seen Renamed',
      tags: ['eu'],
      version: seen.version,
    });
    expect(visible.status).toBe(200);
    for (const [index, path] of paths.entries()) {
      const changed = await ask(path, before[index]!);
      expect(changed.status).toBe(200);
      expect(await changed.text()).toContain('Scope Quiet Seen Renamed');
    }
  });

  it('answers 404 for every route of a client outside the tags, as for no client', async () => {
    const us = await create('Scope Hidden', ['us']);
    const eu = await create('Scope Seen', ['eu']);
    const body = { name: 'Renamed', tags: ['eu'], version: 1 };
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/clients/${us.id}`],
      ['GET', `/api/clients/${us.id}/history`],
      ['GET', `/api/clients/${us.id}/commands`],
      ['GET', `/api/clients/${us.id}/password`],
      ['PUT', `/api/clients/${us.id}`, body],
      ['POST', `/api/clients/${us.id}/duplicate`],
      ['DELETE', `/api/clients/${us.id}`],
      ['POST', `/api/clients/${us.id}/restore`],
    ];
    for (const [method, url, payload] of routes) {
      const hidden = await t.staff.limited.json<{ error: string }>(method, url, payload);
      const none = await t.staff.limited.json<{ error: string }>(
        method,
        url.replace(us.id, 'noSuchClient1'),
        payload,
      );
      expect({ method, url, status: hidden.status }).toEqual({ method, url, status: 404 });
      expect(hidden.body).toEqual(none.body);
    }
    // Nothing happened to it.
    const still = await t.staff.editor.json<Client>('GET', `/api/clients/${us.id}`);
    expect(still.body).toMatchObject({ name: 'Scope Hidden', version: 1 });

    expect((await t.staff.limited.json('GET', `/api/clients/${eu.id}`)).status).toBe(200);
    expect((await t.staff.limited.json('GET', `/api/clients/${eu.id}/history`)).status).toBe(200);
    expect((await t.staff.limited.json('GET', `/api/clients/${eu.id}/commands`)).status).toBe(200);
    // A deleted client keeps its reach: the limited person may undo their own delete.
    expect((await t.staff.limited.request('DELETE', `/api/clients/${eu.id}`)).status).toBe(204);
    const restored = await t.staff.limited.json('POST', `/api/clients/${eu.id}/restore`);
    expect(restored.status).toBe(200);
  });

  it('keeps one of the person’s tags on a client they create or edit', async () => {
    const refused = await t.staff.limited.json<{ error: string; fields: Record<string, string> }>(
      'POST',
      '/api/clients',
      { name: 'Scope Outside', tags: ['us'] },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ tags: 'Must include one of your tags: eu, shared' });
    expect(refused.body.error).toBe('tags: Must include one of your tags: eu, shared');

    const made = await t.staff.limited.json<Client>('POST', '/api/clients', {
      name: 'Scope Mine',
      tags: ['us', 'eu'],
    });
    expect(made.status).toBe(201);
    const moved = await t.staff.limited.json('PUT', `/api/clients/${made.body.id}`, {
      name: 'Scope Mine',
      tags: ['us'],
      version: 1,
    });
    expect(moved.status).toBe(400);
    const copy = await t.staff.limited.json<Client>(
      'POST',
      `/api/clients/${made.body.id}/duplicate`,
    );
    expect(copy.status).toBe(201);
    expect(copy.body.tags).toEqual(['us', 'eu']);
  });

  it('shows a copy’s original in its history only to those who may see the original', async () => {
    const original = await create('Scope Original', ['us']);
    // The copy goes on to other tags, within the limited person's; the original stays out.
    const copy = await copyGivenTags(t.staff.editor, original.id, ['eu']);
    type History = { events: { kind: string; fields: string[] }[] };
    const fieldsOf = async (as: typeof t.staff.editor) => {
      const history = await as.json<History>('GET', `/api/clients/${copy.id}/history`);
      expect(history.status).toBe(200);
      return history.body.events.find((event) => event.kind === 'client.duplicated')?.fields;
    };
    expect(await fieldsOf(t.staff.editor)).toEqual([`from:${original.id}`]);
    expect(await fieldsOf(t.staff.limited)).toEqual([]);
  });

  it('treats bulk ids outside the tags as not found and writes nothing', async () => {
    const eu = await create('Scope Bulk EU', ['eu']);
    const us = await create('Scope Bulk US', ['us']);
    const ids = [eu.id, us.id];
    const tags = await t.staff.limited.json<{ error: string }>('POST', '/api/clients/bulk/tags', {
      ids,
      add: ['x'],
    });
    expect(tags.status).toBe(404);
    expect(tags.body.error).toContain(us.id);
    const deleted = await t.staff.limited.json('POST', '/api/clients/bulk/delete', { ids });
    expect(deleted.status).toBe(404);
    expect((await t.staff.editor.json<Client>('GET', `/api/clients/${eu.id}`)).body.tags).toEqual([
      'eu',
    ]);
    // Taking their last tag off would lose the client for them.
    const lose = await t.staff.limited.json<{ fields: Record<string, string> }>(
      'POST',
      '/api/clients/bulk/tags',
      { ids: [eu.id], remove: ['eu'] },
    );
    expect(lose.status).toBe(400);
    expect(Object.keys(lose.body.fields)).toEqual(['remove']);
    const ok = await t.staff.limited.json('POST', '/api/clients/bulk/tags', {
      ids: [eu.id],
      add: ['x'],
    });
    expect(ok.status).toBe(200);
  });

  it('gives a server its own password when the form or an import sets one on a shared credential', async () => {
    const admin = t.staff.admin;
    const shared = await admin.json<Credential>('POST', '/api/credentials', {
      name: 'Shared root',
      kind: 'password',
      secret: 'shared-secret',
    });
    expect(shared.status).toBe(201);
    const primary = async (client: Client) =>
      (await admin.json<ServerList>('GET', `/api/servers?clientId=${client.id}`)).body.servers[0]!;
    const attach = async (server: Server, credentialId: string) => {
      const { label, host, port, username, uiDir, version } = server;
      const fields = { label, host, port, username, uiDir, private: server.private };
      const put = await admin.json('PUT', `/api/servers/${server.id}`, {
        ...fields,
        credentialId,
        version,
      });
      expect(put.status).toBe(200);
    };
    const reveal = async (id: string) => {
      const answer = await admin.json<CredentialSecret>(
        'POST',
        `/api/credentials/${id}/reveal`,
        {},
      );
      expect(answer.status).toBe(200);
      return answer.body.secret;
    };
    const mine = await admin.json<Client>('POST', '/api/clients', {
      name: 'Scope Shared Mine',
      tags: ['eu'],
      server: { host: 'mine.example.test' },
    });
    // Out of the limited person's sight: they cannot know their save would reach it.
    const hidden = await admin.json<Client>('POST', '/api/clients', {
      name: 'Scope Shared Hidden',
      tags: ['us'],
      server: { host: 'hidden.example.test' },
    });
    await attach(await primary(mine.body), shared.body.id);
    await attach(await primary(hidden.body), shared.body.id);

    const opened = await t.staff.limited.json<Client>('GET', `/api/clients/${mine.body.id}`);
    const saved = await t.staff.limited.json('PUT', `/api/clients/${mine.body.id}`, {
      name: 'Scope Shared Mine',
      tags: ['eu'],
      server: { host: 'mine.example.test', password: 'form-password' },
      version: opened.body.version,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const afterForm = await primary(mine.body);
    expect(afterForm.credential?.kind).toBe('password');
    expect(afterForm.credential?.id).not.toBe(shared.body.id);
    expect(await reveal(afterForm.credential!.id)).toBe('form-password');
    expect(await reveal(shared.body.id)).toBe('shared-secret');
    expect((await primary(hidden.body)).credential?.id).toBe(shared.body.id);

    // A version 1 import writes the same fields, the same way.
    await attach(afterForm, shared.body.id);
    const imported = await t.staff.limited.json('POST', '/api/clients/import', [
      {
        id: mine.body.id,
        name: 'Scope Shared Mine',
        tags: ['eu'],
        server: { host: 'mine.example.test', password: 'import-password' },
      },
    ]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const afterImport = await primary(mine.body);
    expect(afterImport.credential?.id).not.toBe(shared.body.id);
    expect(afterImport.credential?.id).not.toBe(afterForm.credential!.id);
    expect(await reveal(afterImport.credential!.id)).toBe('import-password');
    expect(await reveal(shared.body.id)).toBe('shared-secret');
    const stored = await admin.json<Credential>('GET', `/api/credentials/${shared.body.id}`);
    expect(stored.body.version).toBe(shared.body.version);

    // Used by this server alone, its password credential is resealed in place.
    const again = await t.staff.limited.json<Client>('GET', `/api/clients/${mine.body.id}`);
    const resaved = await t.staff.limited.json('PUT', `/api/clients/${mine.body.id}`, {
      name: 'Scope Shared Mine',
      tags: ['eu'],
      server: { host: 'mine.example.test', password: 'own-password' },
      version: again.body.version,
    });
    expect(resaved.status).toBe(200);
    expect((await primary(mine.body)).credential?.id).toBe(afterImport.credential!.id);
    expect(await reveal(afterImport.credential!.id)).toBe('own-password');
  });
});
