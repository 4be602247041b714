import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientSummaryListSchema,
  type Client,
  type ClientList,
  type ClientSummaryList,
} from '#shared/clients.ts';
import {
  signUpVerified,
  startTestServer,
  type Session,
  type TestServer,
} from '#server/testing/test-server.ts';

const input = (name: string) => ({
  name,
  code: 'C',
  description: '',
  tags: [],
  server: { host: 'h', port: 22, username: 'u', private: true, uiDir: '' },
  domains: [],
});

describe('GET /api/clients with an ETag', () => {
  let server: TestServer;
  let other: TestServer;
  let alice: Session;

  beforeAll(async () => {
    // A second instance on the same database and key: its writes must change the first one's
    // answer.
    const SECRET_KEY = 'list-cache-test-'.repeat(3);
    server = await startTestServer({ SECRET_KEY });
    const database = server.config.database;
    other = await startTestServer({
      SECRET_KEY,
      DATABASE_URL: database.kind === 'postgres' ? database.url : `sqlite:${database.file}`,
    });
    alice = await signUpVerified(server, { name: 'Alice' });
  });
  afterAll(async () => {
    await other.close();
    await server.close();
  });

  async function get(etag?: string, path = '/api/clients') {
    const response = await alice.request(
      'GET',
      path,
      undefined,
      etag ? { 'if-none-match': etag } : {},
    );
    const text = await response.text();
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      cacheControl: response.headers.get('cache-control'),
      text,
    };
  }

  it('answers 304 without a body while nothing changed, and the new list after a write', async () => {
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.cacheControl).toBe('private, no-cache');
    expect(first.etag).toMatch(/^W\/".+"$/);

    const again = await get(first.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const created = await alice.json<Client>('POST', '/api/clients', input('Acme'));
    expect(created.status).toBe(201);
    const after = await get(first.etag!);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(first.etag);
    expect((JSON.parse(after.text) as ClientList).clients.map((c) => c.id)).toContain(
      created.body.id,
    );
    expect((await get(after.etag!)).status).toBe(304);
  });

  it('sees a write made through another instance at once', async () => {
    const before = await get();
    // The same person's cookie is good on the other instance: they share the sessions.
    const elsewhere = await fetch(`${other.url}/api/clients`, {
      method: 'POST',
      headers: {
        cookie: alice.cookieHeader,
        origin: other.url,
        'content-type': 'application/json',
      },
      body: JSON.stringify(input('Elsewhere')),
    });
    expect(elsewhere.status).toBe(201);
    const after = await get(before.etag!);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Elsewhere');
  });

  it('sends the list gzipped to a browser that accepts it', async () => {
    const plain = await get();
    const response = await alice.request('GET', '/api/clients', undefined, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(response.headers.get('etag')).toBe(plain.etag);
    // fetch decodes it: the same list as the identity answer.
    expect(await response.text()).toBe(plain.text);
  });

  it('filters with ?q= from the same list', async () => {
    expect((await alice.json('POST', '/api/clients', input('Initech'))).status).toBe(201);
    const { status, body } = await alice.json<ClientList>('GET', '/api/clients?q=initech');
    expect(status).toBe(200);
    expect(body.clients.map((c) => c.name)).toEqual(['Initech']);
  });

  it('answers ?view=summary with what the list shows and searches, under an ETag of its own', async () => {
    for (const name of ['Globex', 'Umbrella']) {
      expect((await alice.json('POST', '/api/clients', input(name))).status).toBe(201);
    }
    const full = await get();
    const summary = await get(undefined, '/api/clients?view=summary');
    expect(summary.status).toBe(200);
    expect(summary.etag).not.toBe(full.etag);
    const { clients } = clientSummaryListSchema.parse(JSON.parse(summary.text));
    const fullClients = (JSON.parse(full.text) as ClientList).clients;
    // Exactly the summary's fields (no password flag, no port, no creator: toEqual fails on any
    // other), for every client, in the same order as the full list.
    expect(clients).toEqual(
      fullClients.map((c) => ({
        id: c.id,
        name: c.name,
        code: c.code,
        description: c.description,
        tags: c.tags,
        startDate: c.startDate,
        updatedAt: c.updatedAt,
        updatedBy: c.updatedBy,
        server: { host: c.server.host },
      })),
    );
    // The start date and the last change (when, by whom) are in it for the table view and the
    // sort; the port, user name, folder, domains and creator are not.
    expect(Buffer.byteLength(summary.text)).toBeLessThan((Buffer.byteLength(full.text) * 2) / 3);
    const again = await get(summary.etag!, '/api/clients?view=summary');
    expect(again.status).toBe(304);
    // The full list's ETag does not stand for the summary.
    expect((await get(full.etag!, '/api/clients?view=summary')).status).toBe(200);
    const searched = await alice.json<ClientSummaryList>(
      'GET',
      '/api/clients?view=summary&q=globex',
    );
    expect(searched.body.clients).toEqual(clients.filter((c) => c.name === 'Globex'));
  });

  it('refuses an unknown view or a repeated search with 400 naming the parameter', async () => {
    const view = await alice.json<{ fields: Record<string, string> }>(
      'GET',
      '/api/clients?view=everything',
    );
    expect(view.status).toBe(400);
    expect(view.body.fields).toEqual({ view: 'Must be full or summary' });
    const q = await alice.json<{ fields: Record<string, string> }>('GET', '/api/clients?q=a&q=b');
    expect(q.status).toBe(400);
    expect(Object.keys(q.body.fields)).toEqual(['q']);
  });
});
