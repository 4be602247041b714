import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientList } from '#shared/clients.ts';
import {
  signUpVerified,
  startTestServer,
  type Session,
  type TestServer,
} from '../../testing/test-server.ts';

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

  async function get(etag?: string) {
    const response = await alice.request(
      'GET',
      '/api/clients',
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

  it('changes when a person named in the list is renamed', async () => {
    const before = await get();
    const renamed = await alice.request('POST', '/api/auth/update-user', { name: 'Alice B.' });
    expect(renamed.status).toBe(200);
    const after = await get(before.etag!);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Alice B.');
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
    const { status, body } = await alice.json<ClientList>('GET', '/api/clients?q=acme');
    expect(status).toBe(200);
    expect(body.clients.map((c) => c.name)).toEqual(['Acme']);
  });
});
