import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DISABLED_CODE } from '#shared/api-error.ts';
import type { Client } from '#shared/clients.ts';
import type { ServerList } from '#shared/servers.ts';
import { PUBLIC_ROUTES } from './session-guard.ts';
import { isWebAppFile } from '#server/http/static-files.ts';
import { DOCS_PREFIX } from '#server/http/openapi-document.ts';
import type { RegisteredRoute } from '#server/http/route-registry.ts';
import {
  distinctRoutes,
  requestFor,
  sendRouteRequest,
  type RouteRequest,
} from '#server/testing/route-requests.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { SMALL_WEB_BUILD } from '#server/testing/test-server.ts';
import { appWithEndedRun } from '#server/testing/app-records.ts';
import { disableLeavingSessions } from '#server/testing/access.ts';

const t = serveThisFile({
  // A web build, so the static routes are in the list too.
  start: { webFiles: SMALL_WEB_BUILD },
  // An administrator: every signed-in GET below must answer them.
  staff: { member: { name: 'Staff', role: 'admin' }, leaver: { name: 'Leaver' } },
});
let client: Client;
let serverId: string;
let credentialId: string;
let webhookId: string;
let appId: string;
let runId: string;
let issueId: string;

beforeAll(async () => {
  client = (await t.staff.member.json<Client>('POST', '/api/clients', { name: 'Guarded' })).body;
  const { body } = await t.staff.member.json<ServerList>(
    'GET',
    `/api/servers?clientId=${client.id}`,
  );
  serverId = body.servers[0]!.id;
  credentialId = (
    await t.staff.member.json<{ id: string }>('POST', '/api/credentials', {
      name: 'Guarded token',
      kind: 'token',
      secret: 'guarded-token',
    })
  ).body.id;
  // Switched off, on a public address: it is there for the routes, and delivers nothing.
  webhookId = (
    await t.staff.member.json<{ webhook: { id: string } }>('POST', '/api/webhooks', {
      url: 'http://203.0.113.10/guarded',
      events: ['client.created'],
      enabled: false,
    })
  ).body.webhook.id;
  ({
    app: { id: appId },
    runId,
  } = await appWithEndedRun(t.server, t.staff.member, { clientId: client.id, serverId }));
  issueId = (
    await t.staff.member.json<{ id: string }>('POST', '/api/issues', {
      clientId: client.id,
      title: 'Guarded issue',
    })
  ).body.id;
  // Disabled while a session still exists: the `user` command deletes the sessions too, but a
  // sign-in that passed its check a moment before the disabling can leave one behind.
  await disableLeavingSessions(t.server, t.staff.leaver);
});

function isPublic(route: RegisteredRoute): boolean {
  return PUBLIC_ROUTES.has(route.url) || isWebAppFile(route.config);
}

const send = (request: RouteRequest, cookie?: string) =>
  sendRouteRequest(t.server.url, request, cookie);

describe('every registered route', () => {
  const routes = () => distinctRoutes(t.server.app.registeredRoutes);

  it('is found by the registry: the API, auth, health and the web build', () => {
    const names = routes().map((r) => `${r.method} ${r.url}`);
    for (const expected of [
      'GET /api/clients',
      'PUT /api/clients/:id',
      'GET /api/events',
      'POST /api/credentials/:id/reveal',
      'DELETE /api/credentials/:id',
      'POST /api/auth/*',
      'GET /healthz',
      'GET /index.html',
      'GET /assets/index-abc123.js',
    ]) {
      expect(names).toContain(expected);
    }
    expect(names.length).toBeGreaterThan(20);
  });

  it('names exactly these as public: a new public route is a visible change here', () => {
    expect([...PUBLIC_ROUTES].sort()).toEqual([
      '/api/auth/*',
      '/api/auth/callback/:providerId',
      '/api/config',
      '/api/invitations/:token',
      '/healthz',
      '/readyz',
    ]);
  });

  it('is either public or answers 401 without a session and 403 for a disabled user', async () => {
    const guarded: string[] = [];
    for (const route of routes()) {
      const name = `${route.method} ${route.url}`;
      const request = requestFor(route, {
        id: client.id,
        serverId,
        credentialId,
        webhookId,
        appId,
        runId,
        issueId,
        version: client.version,
      });
      if (isPublic(route)) {
        const answer = await send(request);
        expect(answer.body, name).not.toEqual({ error: 'Sign in to continue' });
        // A provider callback without its state redirects back to sign-in with the error; an
        // invitation link with a made-up token is not found.
        if (route.url === '/api/invitations/:token') expect(answer.status, name).toBe(404);
        else if (route.method === 'GET') expect(answer.status, name).toBeLessThan(400);
        continue;
      }
      guarded.push(name);
      // HEAD answers carry no body.
      const head = route.method === 'HEAD';
      expect(await send(request), `${name} without a session`).toEqual({
        status: 401,
        body: head ? '' : { error: 'Sign in to continue' },
      });
      // The router decodes the path: an encoded spelling reaches the same route, and the guard.
      const encoded = { ...request, path: request.path.replace(/^\/a/, '/%61') };
      expect((await send(encoded)).status, `${name} spelled ${encoded.path}`).toBe(401);
      const refused = await send(request, t.staff.leaver.cookieHeader);
      expect(refused.status, `${name} for a disabled user`).toBe(403);
      if (!head) expect(refused.body, name).toMatchObject({ code: ACCOUNT_DISABLED_CODE });
    }
    // Every route but auth, config, health and the web build: HEAD beside each GET included.
    expect(guarded.length).toBeGreaterThanOrEqual(20);
    // Nothing was written by the refused requests.
    expect(
      (await t.staff.member.json<Client>('GET', `/api/clients/${client.id}`)).body.version,
    ).toBe(client.version);
    expect(
      await t.server.app.parts.db.kysely
        .selectFrom('credential')
        .select(['version', 'revealedAt'])
        .where('id', '=', credentialId)
        .executeTakeFirst(),
    ).toEqual({ version: 1, revealedAt: null });
  });

  it('answers the staff member it guards for (the requests above were real ones)', async () => {
    for (const route of routes().filter((r) => !isPublic(r) && r.method === 'GET')) {
      const answer = await send(
        requestFor(route, {
          id: client.id,
          serverId,
          credentialId,
          webhookId,
          appId,
          runId,
          issueId,
        }),
        t.staff.member.cookieHeader,
      );
      // Swagger UI's old address of its page sends the browser on to the page.
      const redirect = route.url === `${DOCS_PREFIX}/static/index.html`;
      expect(answer.status, `${route.method} ${route.url}`).toBe(redirect ? 302 : 200);
    }
  });

  it('keeps unknown API paths behind the guard, and the web app public', async () => {
    expect((await send({ method: 'GET', path: '/api/nothing-here' })).status).toBe(401);
    // Any other GET is the web app's page (its router shows "not found"); a missing file is a
    // plain 404, also without a session.
    expect((await send({ method: 'GET', path: '/no-such-page' })).status).toBe(200);
    expect((await send({ method: 'GET', path: '/no-such-file.txt' })).status).toBe(404);
  });
});
