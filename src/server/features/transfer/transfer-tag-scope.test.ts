import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientExport, ImportReport } from '#shared/client-transfer.ts';
import type { Credential } from '#shared/credentials.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

// Access by tag for export and import: `limited` (tag 'eu') exports only 'eu' clients, and may
// import only within 'eu'; a document outside refuses the whole import.
const t = serveThisFile({
  staff: {
    editor: { name: 'Editor', role: 'editor' },
    limited: { name: 'Limited', role: 'editor', tags: ['eu'] },
  },
});

async function create(name: string, tags: string[], credentialId?: string): Promise<Client> {
  const client = (await t.staff.editor.json<Client>('POST', '/api/clients', { name, tags })).body;
  if (credentialId) {
    const server = await t.staff.editor.json('POST', '/api/servers', {
      clientId: client.id,
      label: 'deploy',
      host: 'deploy.example.test',
      credentialId,
    });
    expect(server.status).toBe(201);
  }
  return client;
}

async function token(name: string): Promise<Credential> {
  return (
    await t.staff.editor.json<Credential>('POST', '/api/credentials', {
      name,
      kind: 'token',
      secret: `secret of ${name}`,
    })
  ).body;
}

describe('access by tag: export and import', () => {
  it('exports only the person’s clients, their servers and their credentials', async () => {
    const euToken = await token('EU deploy token');
    const usToken = await token('US deploy token');
    const eu = await create('Export Madrid', ['eu'], euToken.id);
    const us = await create('Export Chicago', ['us'], usToken.id);

    for (const secrets of ['0', '1']) {
      const response = await t.staff.limited.request(
        'GET',
        `/api/clients/export?secrets=${secrets}`,
      );
      expect(response.status).toBe(200);
      const text = await response.text();
      const file = JSON.parse(text) as ClientExport;
      expect(file.clients.map((c) => c.id)).toContain(eu.id);
      expect(file.credentials.map((c) => c.id)).toEqual([euToken.id]);
      expect(text).not.toContain(us.id);
      expect(text).not.toContain(usToken.id);
      expect(text).not.toContain('secret of US');
    }
    const chosen = await t.staff.limited.json<{ error: string }>('POST', '/api/clients/export', {
      ids: [eu.id, us.id],
    });
    expect(chosen.status).toBe(404);
    expect(chosen.body.error).toContain(us.id);
    const editor = await t.staff.editor.json<ClientExport>('GET', '/api/clients/export');
    expect(editor.body.clients.map((c) => c.id)).toEqual(expect.arrayContaining([eu.id, us.id]));
  });

  it('refuses a whole import with a document outside the person’s tags', async () => {
    const us = await create('Import Seattle', ['us']);
    const outside = await t.staff.limited.json<{ error: string; fields: Record<string, string> }>(
      'POST',
      '/api/clients/import',
      [
        { name: 'Import Rome', tags: ['eu'] },
        { name: 'Import Dallas', tags: ['us'] },
      ],
    );
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe(
      'Document 1: tags: Must include one of your tags: eu. Nothing was imported.',
    );
    expect(outside.body.fields).toEqual({ tags: 'Must include one of your tags: eu' });

    // An id a client outside their tags has: not theirs to replace.
    const replace = await t.staff.limited.json<{ error: string }>('POST', '/api/clients/import', [
      { id: us.id, name: 'Import Seattle', tags: ['eu'] },
    ]);
    expect(replace.status).toBe(400);
    expect(replace.body.error).toContain('Document 0: id:');

    const names = (
      await t.staff.editor.json<{ clients: Client[] }>('GET', '/api/clients')
    ).body.clients.map((c) => c.name);
    expect(names).not.toContain('Import Rome');
    expect(names).toContain('Import Seattle');

    const inside = await t.staff.limited.json<ImportReport>('POST', '/api/clients/import', [
      { name: 'Import Rome', tags: ['eu'] },
    ]);
    expect(inside.status).toBe(200);
    expect(inside.body).toMatchObject({ applied: true, created: 1 });
  });

  // The same file taken to another installation, or its client copied under new ids: the
  // credential it brings is new there, made by the person importing, so theirs to use.
  it('imports servers whose credential the file brings, as the person’s own', async () => {
    const euToken = await token('EU import token');
    const lisbon = await create('Import Lisbon', ['eu'], euToken.id);
    for (const secrets of ['1', '0']) {
      const exported = await t.staff.limited.request(
        'GET',
        `/api/clients/export?secrets=${secrets}`,
      );
      const file = JSON.parse(await exported.text()) as ClientExport;
      const credentialId = randomUUID();
      const copy = {
        ...file,
        clients: file.clients
          .filter((c) => c.id === lisbon.id)
          .map((c) => ({ ...c, id: randomUUID() })),
      };
      const text = JSON.stringify(copy).replaceAll(euToken.id, credentialId);
      const imported = await t.staff.limited.json<ImportReport>(
        'POST',
        '/api/clients/import',
        JSON.parse(text),
      );
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      // Without the secrets, the server comes without its credential, and the report says so.
      expect(imported.body).toMatchObject(
        secrets === '1'
          ? { applied: true, created: 1, credentialsCreated: 1, warnings: [] }
          : { applied: true, created: 1, credentialsCreated: 0 },
      );
      const credential = await t.staff.limited.json<Credential>(
        'GET',
        `/api/credentials/${credentialId}`,
      );
      expect(credential.status).toBe(secrets === '1' ? 200 : 404);
    }
  });
});
