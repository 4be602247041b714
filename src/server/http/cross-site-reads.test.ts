import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerList } from '#shared/servers.ts';
import type { Client } from '#shared/clients.ts';
import { distinctRoutes, requestFor } from '#server/testing/route-requests.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { appWithEndedRun } from '#server/testing/app-records.ts';
import { refusesCrossSite } from './csrf.ts';

/**
 * A GET that reveals a secret or writes is a write as far as another site is concerned: a
 * hostile page could navigate a signed-in browser to the export with passwords (dropping them
 * on the staff member's disk) or to a password read (writing `password_read` in their name).
 * Such routes say so in their route config, and refuse what a write refuses.
 */

const t = serveThisFile({ staff: { member: { name: 'Staff' } } });
let client: Client;
let serverId: string;
let credentialId: string;
let appId: string;
let runId: string;
let issueId: string;
const PASSWORD = 'server-password-cross-site';
const TOKEN = 'access-token-cross-site';
const VAULT_TOKEN = 'vault-token-cross-site';

beforeAll(async () => {
  client = (
    await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Secretive',
      tags: 'eu',
      server: { host: 'h.example', username: 'u', password: PASSWORD },
    })
  ).body;
  await t.staff.member.json('PUT', '/api/me/access-token', { accessToken: TOKEN });
  const { body } = await t.staff.member.json<ServerList>(
    'GET',
    `/api/servers?clientId=${client.id}`,
  );
  serverId = body.servers[0]!.id;
  credentialId = (
    await t.staff.member.json<{ id: string }>('POST', '/api/credentials', {
      name: 'Vault token',
      kind: 'token',
      secret: VAULT_TOKEN,
    })
  ).body.id;
  ({
    app: { id: appId },
    runId,
  } = await appWithEndedRun(t.server, t.staff.member, { clientId: client.id, serverId }));
  issueId = (
    await t.staff.member.json<{ id: string }>('POST', '/api/issues', {
      clientId: client.id,
      serverId,
      title: 'Cross-site issue',
    })
  ).body.id;
});

async function eventCount(): Promise<number> {
  const row = await t.server.app.parts.db.kysely
    .selectFrom('event')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A signed-in GET with exactly these headers besides the cookie (a navigation sends no Origin). */
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, t.server.url), {
    redirect: 'manual',
    headers: { cookie: t.staff.member.cookieHeader, ...headers },
  });
  return { status: response.status, text: await response.text() };
}

function getRoutes() {
  return distinctRoutes(t.server.app.registeredRoutes).filter(
    (route) =>
      route.method === 'GET' && route.url.startsWith('/api/') && route.url !== '/api/auth/*',
  );
}

const paths = (route: { url: string }) => {
  const path = requestFor(
    { method: 'GET', url: route.url, config: {} },
    { id: client.id, serverId, credentialId, appId, runId, issueId },
  ).path;
  // The export reveals only when asked: ask, so an unmarked export would show up here.
  return route.url === '/api/clients/export' ? [path, `${path}?secrets=1`] : [path];
};

describe('GET routes that reveal a secret or write', () => {
  it('are exactly the password read, the export and the commands', () => {
    const marked = getRoutes()
      .filter((route) => refusesCrossSite(route.config))
      .map((route) => route.url)
      .sort();
    expect(marked).toEqual([
      '/api/clients/:id/commands',
      '/api/clients/:id/password',
      '/api/clients/export',
    ]);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
  ])('refuse a request with %s, and write nothing', async (_what, headers) => {
    for (const route of getRoutes().filter((r) => refusesCrossSite(r.config))) {
      for (const path of paths(route)) {
        const before = await eventCount();
        const { status, text } = await get(path, headers);
        expect(status, path).toBe(403);
        expect(text, path).not.toContain(PASSWORD);
        expect(text, path).not.toContain(TOKEN);
        expect(await eventCount(), path).toBe(before);
      }
    }
  });

  it('still answer the web app (same-origin) and a script without browser headers', async () => {
    for (const route of getRoutes().filter((r) => refusesCrossSite(r.config))) {
      for (const path of paths(route)) {
        expect((await get(path, { 'sec-fetch-site': 'same-origin' })).status, path).toBe(200);
        expect((await get(path)).status, path).toBe(200);
      }
    }
  });
});

describe('every other GET route', () => {
  it('reveals no secret and writes nothing, so a cross-site read does no harm', async () => {
    const others = getRoutes().filter(
      (route) => !refusesCrossSite(route.config) && route.url !== '/api/events',
    );
    expect(others.length).toBeGreaterThan(4);
    for (const route of others) {
      for (const path of paths(route)) {
        const before = await eventCount();
        const { status, text } = await get(path, { 'sec-fetch-site': 'cross-site' });
        expect(status, path).toBeLessThan(500);
        expect(text, path).not.toContain(PASSWORD);
        expect(text, path).not.toContain(TOKEN);
        expect(text, path).not.toContain(VAULT_TOKEN);
        expect(await eventCount(), path).toBe(before);
      }
    }
  });
});

describe("the vault's reveal", () => {
  it('is a POST, so it refuses another site as every write does, and records nothing', async () => {
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of foreign) {
      const before = await eventCount();
      const response = await fetch(
        new URL(`/api/credentials/${credentialId}/reveal`, t.server.url),
        {
          method: 'POST',
          headers: {
            cookie: t.staff.member.cookieHeader,
            'content-type': 'application/json',
            ...headers,
          },
          body: JSON.stringify({ purpose: 'reveal' }),
        },
      );
      const text = await response.text();
      expect(response.status).toBe(403);
      expect(text).not.toContain(VAULT_TOKEN);
      expect(await eventCount()).toBe(before);
    }
  });
});
