import { beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientList } from '#shared/clients.ts';
import type { CreatedToken } from '#shared/tokens.ts';
import type { ServerList } from '#shared/servers.ts';
import type { ClientHistory } from '#shared/events.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * What a script looks up: clients and servers by tag, code or host, unreachable servers, and
 * every list walked page by page with a cursor, with a token as a script sends it.
 */

const t = serveThisFile({
  staff: {
    admin: { name: 'Admin', role: 'admin' },
    editor: { name: 'Editor' },
    limited: { name: 'Limited', role: 'editor', tags: ['us-east-1'] },
  },
});

let eu: Client;
let euStaging: string;
let us: Client;
let rail: Client;
let token: string;

beforeAll(async () => {
  const add = async (name: string, code: string, tags: string[], host: string) => {
    const answer = await t.staff.editor.json<Client>('POST', '/api/clients', {
      name,
      code,
      tags,
      server: { host, username: 'deploy' },
    });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  eu = await add('Europe Shop', 'EUS', ['eu-west-1', 'shop'], 'eu.shop.example');
  us = await add('America Shop', 'USS', ['us-east-1', 'shop'], 'us.shop.example');
  rail = await add('Österreich Bahn', 'ÖBB', ['rail'], 'bahn.example');
  const staging = await t.staff.editor.json<{ id: string }>('POST', '/api/servers', {
    clientId: eu.id,
    label: 'staging',
    host: 'staging.eu.shop.example',
  });
  expect(staging.status).toBe(201);
  euStaging = staging.body.id;
  await t.server.app.parts.db.kysely
    .updateTable('server')
    .set({ checkStatus: 'unreachable' })
    .where('id', '=', euStaging)
    .execute();
  const made = await t.staff.editor.json<CreatedToken>('POST', '/api/me/tokens', {
    name: 'Lookups',
    scope: 'read',
    expiresInDays: 30,
  });
  expect(made.status).toBe(201);
  token = made.body.secret;
});

/** A GET with the token alone, as a script sends it. */
async function get<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, t.server.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

describe('lookups', () => {
  it("find the primary server of the client tagged eu-west-1 (the README's example)", async () => {
    const { status, body } = await get<ServerList>('/api/servers?tag=eu-west-1');
    expect(status).toBe(200);
    expect(body.servers.map((s) => s.host).sort()).toEqual([
      'eu.shop.example',
      'staging.eu.shop.example',
    ]);
    expect(body.servers.filter((s) => s.primary).map((s) => s.host)).toEqual(['eu.shop.example']);
  });

  it('find servers by status, client code and host, ignoring case', async () => {
    const unreachable = await get<ServerList>('/api/servers?status=unreachable');
    expect(unreachable.body.servers.map((s) => s.id)).toEqual([euStaging]);
    const byCode = await get<ServerList>('/api/servers?code=uss');
    expect(byCode.body.servers.map((s) => s.client.id)).toEqual([us.id]);
    const byHost = await get<ServerList>('/api/servers?host=STAGING.eu.shop.example');
    expect(byHost.body.servers.map((s) => s.id)).toEqual([euStaging]);
    const both = await get<ServerList>('/api/servers?tag=shop&status=unreachable');
    expect(both.body.servers.map((s) => s.id)).toEqual([euStaging]);
    // Beyond ASCII too, as the clients' lookup does (SQLite's lower() folds ASCII only).
    const folded = await get<ServerList>(`/api/servers?code=${encodeURIComponent('öbb')}`);
    expect(folded.body.servers.map((s) => s.client.id)).toEqual([rail.id]);
  });

  it('find clients by tag, code and primary host', async () => {
    const ids = async (query: string) =>
      (await get<ClientList>(`/api/clients?${query}`)).body.clients.map((c) => c.id).sort();
    expect(await ids('tag=EU-WEST-1')).toEqual([eu.id]);
    expect(await ids('tag=shop')).toEqual([eu.id, us.id].sort());
    expect(await ids('code=uss')).toEqual([us.id]);
    expect(await ids(`code=${encodeURIComponent('öbb')}`)).toEqual([rail.id]);
    expect(await ids('host=us.shop.example')).toEqual([us.id]);
    expect(await ids('tag=shop&code=EUS')).toEqual([eu.id]);
    expect(await ids('tag=no-such-tag')).toEqual([]);
  });

  it('never find what the person may not see', async () => {
    const servers = await t.staff.limited.json<ServerList>('GET', '/api/servers?tag=eu-west-1');
    expect(servers.body.servers).toEqual([]);
    const clients = await t.staff.limited.json<ClientList>('GET', '/api/clients?code=EUS');
    expect(clients.body.clients).toEqual([]);
  });
});

describe('cursor pagination', () => {
  /** Every id a list route gives, page by page, and the number of pages. */
  async function walk(
    path: string,
    listOf: (body: Record<string, unknown>) => { id: string }[],
    limit: number,
    fetchPage: (path: string) => Promise<{ status: number; body: Record<string, unknown> }> = get,
  ): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | null | undefined = undefined;
    let pages = 0;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const query: string = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
      const { status, body } = await fetchPage(`${path}${separator}${query}`);
      expect(status).toBe(200);
      const page = listOf(body);
      expect(page.length).toBeLessThanOrEqual(limit);
      ids.push(...page.map((item) => item.id));
      cursor = body.nextCursor as string | null;
      pages += 1;
    } while (cursor);
    return { ids, pages };
  }

  it('walks the clients, servers and credentials lists without a gap or a repeat', async () => {
    for (const [path, key] of [
      ['/api/clients', 'clients'],
      ['/api/servers', 'servers'],
      ['/api/credentials', 'credentials'],
    ] as const) {
      const whole = await get<Record<string, { id: string }[]>>(path);
      const all = whole.body[key]!.map((item) => item.id);
      expect(whole.body).not.toHaveProperty('nextCursor');
      const { ids, pages } = await walk(path, (body) => body[key] as { id: string }[], 1);
      expect({ path, ids: [...ids].sort() }).toEqual({ path, ids: [...all].sort() });
      expect(new Set(ids).size).toBe(ids.length);
      expect(pages).toBeGreaterThanOrEqual(all.length);
    }
  });

  it('walks the lists no token reaches the same way: own tokens and devices, people, webhooks', async () => {
    for (const name of ['one', 'two']) {
      const made = await t.staff.admin.json('POST', '/api/me/tokens', {
        name,
        scope: 'read',
        expiresInDays: 30,
      });
      expect(made.status).toBe(201);
    }
    await t.staff.admin.json('POST', '/api/webhooks', {
      url: 'https://hooks.example.com/a',
      events: ['client.created'],
      enabled: false,
    });
    await t.staff.admin.json('POST', '/api/webhooks', {
      url: 'https://hooks.example.com/b',
      events: ['client.created'],
      enabled: false,
    });
    const asAdmin = (path: string) => t.staff.admin.json<Record<string, unknown>>('GET', path);
    for (const [path, key] of [
      ['/api/me/tokens', 'tokens'],
      ['/api/me/sessions', 'sessions'],
      ['/api/people', 'people'],
      ['/api/webhooks', 'webhooks'],
    ] as const) {
      const whole = await asAdmin(path);
      const all = (whole.body[key] as { id: string }[]).map((item) => item.id);
      expect(all.length).toBeGreaterThan(0);
      const list = (body: Record<string, unknown>) => body[key] as { id: string }[];
      const { ids } = await walk(path, list, 1, asAdmin);
      expect({ path, ids: [...ids].sort() }).toEqual({ path, ids: [...all].sort() });
    }
  });

  it("walks a client's history by its events, oldest first", async () => {
    const edited = await t.staff.editor.json('PUT', `/api/clients/${eu.id}`, {
      ...eu,
      description: 'edited once',
    });
    expect(edited.status).toBe(200);
    const whole = await get<ClientHistory>(`/api/clients/${eu.id}/history`);
    const pageOne = await get<ClientHistory>(`/api/clients/${eu.id}/history?limit=1`);
    expect(pageOne.body.events.map((e) => e.seq)).toEqual([whole.body.events.at(-1)!.seq]);
    const rest = await get<ClientHistory>(
      `/api/clients/${eu.id}/history?limit=100&cursor=${pageOne.body.nextCursor}`,
    );
    expect(rest.body.nextCursor).toBeNull();
    expect([...pageOne.body.events, ...rest.body.events].map((e) => e.seq)).toEqual(
      whole.body.events.map((e) => e.seq).reverse(),
    );
  });

  it('refuses a cursor it did not make, naming the field', async () => {
    for (const cursor of ['not-a-cursor', 'eyJhIjoxfQ', '%00', 'x'.repeat(201)]) {
      const { status, body } = await get<{ fields?: Record<string, string> }>(
        `/api/servers?cursor=${cursor}`,
      );
      expect({ cursor, status }).toEqual({ cursor, status: 400 });
      expect(body.fields).toHaveProperty('cursor');
    }
    const limit = await get<{ fields?: Record<string, string> }>('/api/clients?limit=0');
    expect(limit.status).toBe(400);
    expect(limit.body.fields).toHaveProperty('limit');
  });
});
