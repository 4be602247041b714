import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import {
  IMPORT_MAX_DOCUMENTS,
  type ClientExport,
  type ImportRefused,
  type ImportReport,
} from '#shared/client-transfer.ts';
import type { ClientHistory } from '#shared/events.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { sshKeyText, withKdfRounds } from '#server/testing/sshd.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const ALICE = uniqueEmail('alice');
const t = serveThisFile({ staff: { alice: { name: 'Alice', email: ALICE } } });

async function count(table: 'client' | 'event'): Promise<number> {
  const row = await t.server.app.parts.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function exportFile(query = ''): Promise<{ response: Response; file: ClientExport }> {
  const response = await t.staff.alice.request('GET', `/api/clients/export${query}`);
  expect(response.status).toBe(200);
  return { response, file: (await response.json()) as ClientExport };
}

function importFile<T = ImportReport>(body: unknown, query = '') {
  return t.staff.alice.json<T>('POST', `/api/clients/import${query}`, body);
}

/** A Firestore-style id, 20 characters. */
const firestoreId = (n: number) => `fs${String(n).padStart(18, '0')}`;

describe('export', () => {
  it('downloads every client without passwords, and records no password read', async () => {
    const client = (
      await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Exported',
        server: { host: 'e.example', password: 'export-secret-1' },
      })
    ).body;
    const events = await count('event');
    const { response, file } = await exportFile();
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="clients-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(file).toMatchObject({
      format: 'clients-manager-export',
      version: 2,
      includesSecrets: false,
    });
    const exported = file.clients.find((c) => c.id === client.id);
    expect(exported).toMatchObject({ name: 'Exported', server: { hasPassword: true } });
    expect(exported?.server.password).toBeUndefined();
    expect(JSON.stringify(file)).not.toContain('export-secret-1');
    expect(await count('event')).toBe(events);
  });

  it('with ?secrets=1 puts the passwords in and records each read in the history', async () => {
    const client = (
      await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Secretive',
        server: { password: 'export-secret-2' },
      })
    ).body;
    const { response, file } = await exportFile('?secrets=1');
    expect(response.headers.get('content-disposition')).toMatch(/-with-passwords\.json"$/);
    expect(file.includesSecrets).toBe(true);
    expect(file.clients.find((c) => c.id === client.id)?.server.password).toBe('export-secret-2');
    const history = await t.staff.alice.json<ClientHistory>(
      'GET',
      `/api/clients/${client.id}/history`,
    );
    expect(history.body.events[0]).toMatchObject({
      kind: 'client.password_read',
      actor: { name: ALICE },
      fields: ['export'],
    });
  });

  it('needs a session', async () => {
    expect((await new Session(t.server).json('GET', '/api/clients/export')).status).toBe(401);
    expect((await new Session(t.server).json('POST', '/api/clients/import', [])).status).toBe(401);
  });
});

describe('import', () => {
  it('re-importing our own export changes nothing; an edited field updates that client only', async () => {
    const { file } = await exportFile('?secrets=1');
    const events = await count('event');
    const again = await importFile(file);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      applied: true,
      created: 0,
      updated: 0,
      unchanged: file.clients.length,
      credentialsCreated: 0,
      invalid: [],
      warnings: [],
    });
    expect(await count('event')).toBe(events);

    const target = file.clients[0]!;
    const edited = {
      ...file,
      clients: file.clients.map((c) => (c.id === target.id ? { ...c, code: 'NEW' } : c)),
    };
    expect((await importFile(edited)).body).toMatchObject({ updated: 1, created: 0 });
    const after = (await t.staff.alice.json<Client>('GET', `/api/clients/${target.id}`)).body;
    expect(after).toMatchObject({ code: 'NEW', version: target.version + 1, updatedBy: ALICE });
    const history = await t.staff.alice.json<ClientHistory>(
      'GET',
      `/api/clients/${target.id}/history`,
    );
    expect(history.body.events[0]).toMatchObject({
      kind: 'client.updated',
      fields: ['code', 'import'],
    });
  });

  it('updates a known id from a Firestore document, keeping the password it does not carry', async () => {
    const client = (
      await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Old name',
        server: { host: 'old.example', password: 'keep-this-one' },
      })
    ).body;
    const report = await importFile({
      [client.id]: { name: 'New name', server: { host: 'new.example', port: '2200' } },
    });
    expect(report.body).toMatchObject({ applied: true, updated: 1, created: 0 });
    const after = (await t.staff.alice.json<Client>('GET', `/api/clients/${client.id}`)).body;
    expect(after).toMatchObject({
      name: 'New name',
      server: { host: 'new.example', port: 2200, hasPassword: true },
      version: 2,
    });
    const password = await t.staff.alice.json<{ password: string }>(
      'GET',
      `/api/clients/${client.id}/password`,
    );
    expect(password.body.password).toBe('keep-this-one');
  });

  it('creates a client under the id of a deleted one, which can then no longer be undone', async () => {
    const client = (await t.staff.alice.json<Client>('POST', '/api/clients', { name: 'Gone' }))
      .body;
    expect((await t.staff.alice.json('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
    const report = await importFile([{ id: client.id, name: 'Back by import' }]);
    expect(report.body).toMatchObject({ created: 1 });
    expect((await t.staff.alice.json('POST', `/api/clients/${client.id}/restore`)).status).toBe(
      409,
    );
  });

  it('gives a document whose id is a route word under /api/clients/ a new id, so it can be restored', async () => {
    const report = await importFile([{ id: 'bulk', name: 'Bulky' }]);
    expect(report.body).toMatchObject({ created: 1 });
    const listed = await t.staff.alice.json<{ clients: Client[] }>('GET', '/api/clients?q=Bulky');
    const [client] = listed.body.clients;
    expect(client?.id).not.toBe('bulk');
    expect((await t.staff.alice.json('DELETE', `/api/clients/${client!.id}`)).status).toBe(204);
    const restored = await t.staff.alice.json('POST', `/api/clients/${client!.id}/restore`);
    expect(restored.status).toBe(200);
  });

  it('answers 400 for a file in no known shape and 413 naming the limit for a huge one', async () => {
    const wrong = await importFile<{ error: string }>({ name: 'just one client' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/holds no client documents/);
    const huge = await t.staff.alice.request(
      'POST',
      '/api/clients/import?dryRun=1',
      JSON.stringify(['x'.repeat(21 * 1024 * 1024)]),
    );
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: string }).error).toBe(
      'Request body is too large: the limit is 20 MB',
    );
  });

  it('refuses, at once, a key in the file edited to take billions of bcrypt rounds', async () => {
    const key = await sshKeyText({ passphrase: 'right words', kdfRounds: 1 });
    const file = {
      format: 'clients-manager-export',
      version: 2,
      credentials: [
        {
          id: 'endless-key',
          name: 'Endless',
          kind: 'ssh-key',
          secret: withKdfRounds(key, 0xffffffff),
          passphrase: 'right words',
        },
      ],
      clients: [],
    };
    const answer = await importFile<{ error: string }>(file, '?dryRun=1');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^credentials\.0\.secret: .*more than 1000 bcrypt rounds/);
  });

  it('answers 400 naming the count for more documents than one import takes, before mapping', async () => {
    const clientsBefore = await count('client');
    const over = await importFile<{ error: string }>(
      Array.from({ length: IMPORT_MAX_DOCUMENTS + 1 }, () => ({})),
      '?dryRun=1',
    );
    expect(over.status).toBe(400);
    expect(over.body.error).toBe(
      'clients: The file holds 10,001 client documents; an import takes at most 10,000. Split the file, or import it with npm run clients -- import.',
    );
    const most = await importFile(
      Array.from({ length: IMPORT_MAX_DOCUMENTS }, () => ({})),
      '?dryRun=1',
    );
    expect(most.body).toMatchObject({ applied: false, total: IMPORT_MAX_DOCUMENTS });
    expect(await count('client')).toBe(clientsBefore);
  });

  it('refuses a request from another site', async () => {
    const response = await t.staff.alice.request('POST', '/api/clients/import', [], {
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
  });

  it('takes 5,000 Firestore documents with broken ones: dry run, all-or-nothing, then one event each', async () => {
    const broken = new Set([7, 1234, 2500, 4999]);
    const documents: Record<string, unknown> = {};
    for (let n = 0; n < 5000; n += 1) {
      documents[firestoreId(n)] = {
        name: `Bulk ${n}`,
        code: `B${n}`,
        description: 'Imported from Firestore',
        tags: n % 2 ? 'eu-west-1, bulk' : ['us-east-1'],
        startDate:
          n % 3
            ? { _seconds: 1_600_000_000 + n * 86_400, _nanoseconds: 0 }
            : '2022-05-01T10:00:00Z',
        server: {
          username: 'deploy',
          private: true,
          password: `pw-${n}`,
          port: broken.has(n) ? 'twenty-two' : 22,
          host: `bulk-${n}.example.com`,
          uiDir: '/srv/ui',
        },
        domains: [`https://bulk-${n}.example.com`],
      };
    }
    const body = JSON.stringify({ clients: documents });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const clientsBefore = await count('client');
    const eventsBefore = await count('event');

    const dry = await importFile(body, '?dryRun=1');
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ applied: false, total: 5000, created: 4996, updated: 0 });
    expect(dry.body.invalid).toEqual(
      [...broken].map((index) => ({
        index,
        id: firestoreId(index),
        reason: 'server.port: Must be a number',
      })),
    );

    const refused = await importFile<ImportRefused>(body);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe(
      '4 documents are invalid, so nothing was imported: fix them, or import only the valid ones.',
    );
    expect(refused.body.report.invalid).toHaveLength(4);
    expect(await count('client')).toBe(clientsBefore);
    expect(await count('event')).toBe(eventsBefore);

    const stream = await openEventStream(t.server.url, t.staff.alice.cookieHeader);
    await stream.until('stream.ready');
    const applied = await importFile(body, '?skipInvalid=1');
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ applied: true, created: 4996, updated: 0, unchanged: 0 });
    expect(await count('client')).toBe(clientsBefore + 4996);
    expect(await count('event')).toBe(eventsBefore + 4996);
    // Live browsers hear of every one, in file order.
    const live = await stream.until('client.created', 10_000);
    expect(JSON.parse(live.at(-1)!.data)).toMatchObject({
      clientId: firestoreId(0),
      actor: { name: ALICE },
      fields: ['import'],
    });
    stream.close();

    const one = (await t.staff.alice.json<Client>('GET', `/api/clients/${firestoreId(4)}`)).body;
    expect(one).toMatchObject({
      name: 'Bulk 4',
      tags: ['us-east-1'],
      startDate: '2020-09-17',
      server: { host: 'bulk-4.example.com', hasPassword: true, port: 22 },
      createdBy: ALICE,
      version: 1,
    });
    const password = await t.staff.alice.json<{ password: string }>(
      'GET',
      `/api/clients/${firestoreId(4)}/password`,
    );
    expect(password.body.password).toBe('pw-4');
  });
});
