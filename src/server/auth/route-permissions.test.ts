import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { can, type Role } from '#shared/people.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import type { App } from '#shared/apps.ts';
import type { Issue } from '#shared/issues.ts';
import { PUBLIC_ROUTES } from './session-guard.ts';
import { ROUTE_PERMISSIONS } from './route-permissions.ts';
import { SESSION_ONLY_ROUTES } from './api-tokens.ts';
import { scopeAllows, type CreatedToken, type TokenScope } from '#shared/tokens.ts';
import { isWebAppFile } from '#server/http/static-files.ts';
import { API_DOCS_THEME, DOCS_PREFIX, OPENAPI_PATH } from '#server/http/openapi-document.ts';
import { sendRouteRequest, type RouteRequest } from '#server/testing/route-requests.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { appWithEndedRun } from '#server/testing/app-records.ts';
import {
  closedPort,
  signUpVerified,
  uniqueEmail,
  type Session,
} from '#server/testing/test-server.ts';

/**
 * THE ROUTE × ROLE MATRIX: every signed-in route the app registered, asked by each kind of
 * person, answers as ROUTE_PERMISSIONS and can() say: the route's own answer when allowed, a
 * 403 (and nothing written) when not. Each request works on records made for it, so a delete
 * or a restore answers meaningfully for every person, in any order; a refusal wrote nothing, so
 * the records it asked about serve the route's next refusal.
 */

const t = serveThisFile({
  // The People routes each act on a person signed up for them: more than a minute's sign-ups.
  // Webhooks point at a closed port on 127.0.0.1: allowed here, and every attempt is refused.
  env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' },
  // A check of a closed port fails at once: one attempt, no retries.
  start: { serverChecks: { timeoutMs: 5_000, attempts: 1, retryDelayMs: 10 } },
  staff: {
    admin: { name: 'Matrix Admin', role: 'admin' },
    editor: { name: 'Matrix Editor', role: 'editor' },
    viewer: { name: 'Matrix Viewer', role: 'viewer' },
    // An editor limited to clients tagged 'elsewhere': every record made below is 'matrix'.
    limited: { name: 'Matrix Limited', role: 'editor', tags: ['elsewhere'] },
  },
});

/** The records a request works on, made for it by the admin just before it is sent. */
class Records {
  readonly #owner: Session;
  readonly #closedPort: number;
  constructor(owner: Session, closedPort: number) {
    this.#owner = owner;
    this.#closedPort = closedPort;
  }

  async #ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.#owner.json<T>(method, path, body);
    if (answer.status >= 300) {
      throw new Error(
        `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
      );
    }
    return answer.body;
  }

  /** A client whose primary server has a host (a closed port), a username and a password. */
  client(): Promise<Client> {
    return this.#ok<Client>('POST', '/api/clients', {
      name: 'Matrix client',
      tags: ['matrix'],
      server: {
        host: '127.0.0.1',
        port: this.#closedPort,
        username: 'deploy',
        password: 'matrix-password',
      },
    });
  }

  async deletedClient(): Promise<Client> {
    const client = await this.client();
    await this.#ok('DELETE', `/api/clients/${client.id}`);
    return client;
  }

  /** A client's primary server. */
  async primaryServer(): Promise<Server> {
    const client = await this.client();
    const list = await this.#ok<ServerList>('GET', `/api/servers?clientId=${client.id}`);
    return list.servers[0]!;
  }

  /** A second server of a client: not its primary, so it may be removed or made primary. */
  async otherServer(): Promise<Server> {
    const client = await this.client();
    return this.#ok<Server>('POST', '/api/servers', { clientId: client.id, label: 'Second' });
  }

  /** A person of their own, signed up and verified, for the People routes to act on. */
  async person(): Promise<string> {
    const session = await signUpVerified(t.server, { name: 'Matrix person' });
    return (await session.json<{ id: string }>('GET', '/api/me')).body.id;
  }

  /** A pending invitation, so it may be revoked. */
  async invitation(): Promise<string> {
    const made = await this.#ok<{ id: string }>('POST', '/api/people/invitations', {
      email: uniqueEmail('matrix-invited'),
      role: 'viewer',
    });
    return made.id;
  }

  /** A webhook endpoint (on the closed port) that wants the clients' creations. */
  async webhook(): Promise<string> {
    const made = await this.#ok<{ webhook: { id: string } }>('POST', '/api/webhooks', {
      url: `http://127.0.0.1:${this.#closedPort}/hook`,
      events: ['client.created'],
    });
    return made.webhook.id;
  }

  /** A webhook with a delivery queued (of a client's creation): it waits on the closed port. */
  async webhookDelivery(): Promise<{ webhookId: string; deliveryId: string }> {
    await this.client();
    const webhookId = await this.webhook();
    const queued = await this.#ok<{ id: string }>('POST', `/api/webhooks/${webhookId}/test`);
    return { webhookId, deliveryId: queued.id };
  }

  /** An app of a client, on its primary server (never checked: a deploy of it is refused). */
  async app(): Promise<App> {
    const server = await this.primaryServer();
    return this.#ok<App>('POST', '/api/apps', {
      clientId: server.client.id,
      serverId: server.id,
      name: 'Matrix app',
    });
  }

  /** An ended run of an app of its own, with a line of log. */
  async run(): Promise<string> {
    const server = await this.primaryServer();
    const { runId } = await appWithEndedRun(t.server, this.#owner, {
      clientId: server.client.id,
      serverId: server.id,
    });
    return runId;
  }

  /** An open issue of a client of its own. */
  async issue(): Promise<Issue> {
    const client = await this.client();
    return this.#ok<Issue>('POST', '/api/issues', { clientId: client.id, title: 'Matrix issue' });
  }

  /** A resolved issue, so it may be reopened. */
  async resolvedIssue(): Promise<Issue> {
    const issue = await this.issue();
    return this.#ok<Issue>('POST', `/api/issues/${issue.id}/resolve`);
  }

  /** A token in the vault that no server uses, so it may be deleted. */
  credential(): Promise<{ id: string; version: number }> {
    return this.#ok('POST', '/api/credentials', {
      name: 'Matrix token',
      kind: 'token',
      secret: 'matrix-token-secret',
    });
  }
}

/** How one route is asked, and what it answers someone it allows. */
interface RouteCase {
  /** `session`: the person asking, for a route about their own things (see `ownThings`). */
  request: (records: Records, session: Session) => Promise<RouteRequest>;
  /** The request names the asker's own things: it is not asked again for someone else. */
  ownThings?: true;
  /** The answer to a person the route allows: a success, or the route's own non-auth answer. */
  allowed: number;
}

const get = (path: string) => ({ method: 'GET', path });

/** Every route of ROUTE_PERMISSIONS; a route added there without a case here fails below. */
const ROUTE_CASES: Readonly<Record<string, RouteCase>> = {
  'GET /api/events': { allowed: 200, request: async () => get('/api/events') },

  'GET /api/me': { allowed: 200, request: async () => get('/api/me') },
  'PUT /api/me/access-token': {
    allowed: 200,
    request: async () => ({
      method: 'PUT',
      path: '/api/me/access-token',
      body: { accessToken: 'matrix-access-token' },
    }),
  },
  'GET /api/me/sessions': { allowed: 200, request: async () => get('/api/me/sessions') },
  // Each person has one session: nothing else to sign out.
  'POST /api/me/sessions/revoke-others': {
    allowed: 200,
    request: async () => ({ method: 'POST', path: '/api/me/sessions/revoke-others' }),
  },

  'GET /api/me/tokens': { allowed: 200, request: async () => get('/api/me/tokens') },
  'POST /api/me/tokens': {
    allowed: 201,
    request: async () => ({
      method: 'POST',
      path: '/api/me/tokens',
      body: { name: 'Matrix token', scope: 'read', expiresInDays: 30 },
    }),
  },
  // One of the asking person's own tokens, made for the request.
  'DELETE /api/me/tokens/:id': {
    allowed: 204,
    ownThings: true,
    request: async (_, session) => {
      const made = await session.json<CreatedToken>('POST', '/api/me/tokens', {
        name: 'Matrix token to revoke',
        scope: 'read',
        expiresInDays: null,
      });
      return { method: 'DELETE', path: `/api/me/tokens/${made.body.token.id}` };
    },
  },

  'GET /api/clients': { allowed: 200, request: async () => get('/api/clients') },
  'GET /api/clients/:id': {
    allowed: 200,
    request: async (r) => get(`/api/clients/${(await r.client()).id}`),
  },
  'GET /api/clients/:id/history': {
    allowed: 200,
    request: async (r) => get(`/api/clients/${(await r.client()).id}/history`),
  },
  'GET /api/clients/:id/commands': {
    allowed: 200,
    request: async (r) => get(`/api/clients/${(await r.client()).id}/commands`),
  },
  'GET /api/clients/:id/password': {
    allowed: 200,
    request: async (r) => get(`/api/clients/${(await r.client()).id}/password`),
  },
  'POST /api/clients': {
    allowed: 201,
    request: async () => ({ method: 'POST', path: '/api/clients', body: { name: 'Matrix new' } }),
  },
  'PUT /api/clients/:id': {
    allowed: 200,
    request: async (r) => {
      const client = await r.client();
      return {
        method: 'PUT',
        path: `/api/clients/${client.id}`,
        body: { name: 'Matrix changed', version: client.version },
      };
    },
  },
  'DELETE /api/clients/:id': {
    allowed: 204,
    request: async (r) => ({ method: 'DELETE', path: `/api/clients/${(await r.client()).id}` }),
  },
  'POST /api/clients/:id/duplicate': {
    allowed: 201,
    request: async (r) => ({
      method: 'POST',
      path: `/api/clients/${(await r.client()).id}/duplicate`,
    }),
  },
  'POST /api/clients/:id/restore': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: `/api/clients/${(await r.deletedClient()).id}/restore`,
    }),
  },
  'POST /api/clients/bulk/tags': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: '/api/clients/bulk/tags',
      body: { ids: [(await r.client()).id], add: ['matrix-bulk'] },
    }),
  },
  'POST /api/clients/bulk/delete': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: '/api/clients/bulk/delete',
      body: { ids: [(await r.client()).id] },
    }),
  },
  'POST /api/clients/bulk/restore': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: '/api/clients/bulk/restore',
      body: { ids: [(await r.deletedClient()).id] },
    }),
  },
  'GET /api/clients/export': { allowed: 200, request: async () => get('/api/clients/export') },
  'POST /api/clients/export': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: '/api/clients/export',
      body: { ids: [(await r.client()).id] },
    }),
  },
  'POST /api/clients/import': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: '/api/clients/import',
      body: { [(await r.client()).id]: { name: 'Matrix imported' } },
    }),
  },

  'GET /api/servers': { allowed: 200, request: async () => get('/api/servers') },
  'GET /api/servers/:id': {
    allowed: 200,
    request: async (r) => get(`/api/servers/${(await r.primaryServer()).id}`),
  },
  'GET /api/servers/:id/history': {
    allowed: 200,
    request: async (r) => get(`/api/servers/${(await r.primaryServer()).id}/history`),
  },
  'POST /api/servers': {
    allowed: 201,
    request: async (r) => ({
      method: 'POST',
      path: '/api/servers',
      body: { clientId: (await r.client()).id, label: 'Matrix server' },
    }),
  },
  'PUT /api/servers/:id': {
    allowed: 200,
    request: async (r) => {
      const server = await r.otherServer();
      return {
        method: 'PUT',
        path: `/api/servers/${server.id}`,
        body: { label: 'Matrix renamed', version: server.version },
      };
    },
  },
  'DELETE /api/servers/:id': {
    allowed: 204,
    request: async (r) => ({
      method: 'DELETE',
      path: `/api/servers/${(await r.otherServer()).id}`,
    }),
  },
  'POST /api/servers/:id/primary': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: `/api/servers/${(await r.otherServer()).id}/primary`,
    }),
  },
  // Accepted only when a check was offered this key; none was: the route's own 400.
  'POST /api/servers/:id/host-key': {
    allowed: 400,
    request: async (r) => ({
      method: 'POST',
      path: `/api/servers/${(await r.primaryServer()).id}/host-key`,
      body: { fingerprint: `SHA256:${'A'.repeat(43)}` },
    }),
  },
  // A closed port: the check runs and records the server as unreachable.
  'POST /api/servers/:id/check': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: `/api/servers/${(await r.primaryServer()).id}/check`,
    }),
  },

  'GET /api/credentials': { allowed: 200, request: async () => get('/api/credentials') },
  'GET /api/credentials/:id': {
    allowed: 200,
    request: async (r) => get(`/api/credentials/${(await r.credential()).id}`),
  },
  'POST /api/credentials': {
    allowed: 201,
    request: async () => ({
      method: 'POST',
      path: '/api/credentials',
      body: { name: 'Matrix made', kind: 'token', secret: 'matrix-made-secret' },
    }),
  },
  'PUT /api/credentials/:id': {
    allowed: 200,
    request: async (r) => {
      const credential = await r.credential();
      return {
        method: 'PUT',
        path: `/api/credentials/${credential.id}`,
        body: { name: 'Matrix renamed', version: credential.version },
      };
    },
  },
  'POST /api/credentials/:id/rotate': {
    allowed: 200,
    request: async (r) => {
      const credential = await r.credential();
      return {
        method: 'POST',
        path: `/api/credentials/${credential.id}/rotate`,
        body: { version: credential.version, secret: 'matrix-rotated' },
      };
    },
  },
  'DELETE /api/credentials/:id': {
    allowed: 204,
    request: async (r) => ({
      method: 'DELETE',
      path: `/api/credentials/${(await r.credential()).id}`,
    }),
  },
  'POST /api/credentials/:id/reveal': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: `/api/credentials/${(await r.credential()).id}/reveal`,
      body: { purpose: 'reveal' },
    }),
  },

  'GET /api/people': { allowed: 200, request: async () => get('/api/people') },
  'PATCH /api/people/:id': {
    allowed: 200,
    request: async (r) => ({
      method: 'PATCH',
      path: `/api/people/${await r.person()}`,
      body: { role: 'viewer', tags: ['matrix'] },
    }),
  },
  'POST /api/people/:id/sign-out': {
    allowed: 200,
    request: async (r) => ({ method: 'POST', path: `/api/people/${await r.person()}/sign-out` }),
  },
  'POST /api/people/:id/reset-second-factor': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: `/api/people/${await r.person()}/reset-second-factor`,
    }),
  },
  'POST /api/people/invitations': {
    allowed: 201,
    request: async () => ({
      method: 'POST',
      path: '/api/people/invitations',
      body: { email: uniqueEmail('matrix-invite'), role: 'editor', tags: ['matrix'] },
    }),
  },
  'DELETE /api/people/invitations/:id': {
    allowed: 204,
    request: async (r) => ({
      method: 'DELETE',
      path: `/api/people/invitations/${await r.invitation()}`,
    }),
  },
  'GET /api/audit': { allowed: 200, request: async () => get('/api/audit') },

  'GET /api/webhooks': { allowed: 200, request: async () => get('/api/webhooks') },
  'POST /api/webhooks': {
    allowed: 201,
    request: async () => ({
      method: 'POST',
      path: '/api/webhooks',
      body: { url: 'http://127.0.0.1:9/matrix', events: ['server.created'], enabled: false },
    }),
  },
  'PATCH /api/webhooks/:id': {
    allowed: 200,
    request: async (r) => ({
      method: 'PATCH',
      path: `/api/webhooks/${await r.webhook()}`,
      body: { events: ['client.updated'], enabled: false },
    }),
  },
  'DELETE /api/webhooks/:id': {
    allowed: 204,
    request: async (r) => ({ method: 'DELETE', path: `/api/webhooks/${await r.webhook()}` }),
  },
  'GET /api/webhooks/:id/deliveries': {
    allowed: 200,
    request: async (r) => get(`/api/webhooks/${await r.webhook()}/deliveries`),
  },
  // The delivery still waits on the closed port: a resend of it is the route's own 409.
  'POST /api/webhooks/:id/deliveries/:deliveryId/resend': {
    allowed: 409,
    request: async (r) => {
      const { webhookId, deliveryId } = await r.webhookDelivery();
      return {
        method: 'POST',
        path: `/api/webhooks/${webhookId}/deliveries/${deliveryId}/resend`,
      };
    },
  },
  'POST /api/webhooks/:id/test': {
    allowed: 202,
    request: async (r) => {
      await r.client();
      return { method: 'POST', path: `/api/webhooks/${await r.webhook()}/test` };
    },
  },
  'GET /api/apps': { allowed: 200, request: async () => get('/api/apps') },
  'GET /api/apps/:id': {
    allowed: 200,
    request: async (r) => get(`/api/apps/${(await r.app()).id}`),
  },
  'POST /api/apps': {
    allowed: 201,
    request: async (r) => {
      const server = await r.primaryServer();
      return {
        method: 'POST',
        path: '/api/apps',
        body: { clientId: server.client.id, serverId: server.id, name: 'Matrix app' },
      };
    },
  },
  'PUT /api/apps/:id': {
    allowed: 200,
    request: async (r) => {
      const app = await r.app();
      return {
        method: 'PUT',
        path: `/api/apps/${app.id}`,
        body: { name: 'Matrix app changed', serverId: app.server!.id, version: app.version },
      };
    },
  },
  'DELETE /api/apps/:id': {
    allowed: 204,
    request: async (r) => ({ method: 'DELETE', path: `/api/apps/${(await r.app()).id}` }),
  },
  'GET /api/apps/:id/runs': {
    allowed: 200,
    request: async (r) => get(`/api/apps/${(await r.app()).id}/runs`),
  },
  // Its server was never checked, so no host key is pinned: the route's own 409.
  'POST /api/apps/:id/runs': {
    allowed: 409,
    request: async (r) => ({ method: 'POST', path: `/api/apps/${(await r.app()).id}/runs` }),
  },
  'GET /api/runs/:id': { allowed: 200, request: async (r) => get(`/api/runs/${await r.run()}`) },
  // The run has ended: the stream sends its log and its end, and closes.
  'GET /api/runs/:id/log': {
    allowed: 200,
    request: async (r) => get(`/api/runs/${await r.run()}/log`),
  },
  'GET /api/runs/:id/log.txt': {
    allowed: 200,
    request: async (r) => get(`/api/runs/${await r.run()}/log.txt`),
  },
  // The run has ended: the route's own 409.
  'POST /api/runs/:id/cancel': {
    allowed: 409,
    request: async (r) => ({ method: 'POST', path: `/api/runs/${await r.run()}/cancel` }),
  },

  'GET /api/issues': { allowed: 200, request: async () => get('/api/issues') },
  'GET /api/issues/assignees': { allowed: 200, request: async () => get('/api/issues/assignees') },
  'GET /api/issues/:id': {
    allowed: 200,
    request: async (r) => get(`/api/issues/${(await r.issue()).id}`),
  },
  'POST /api/issues': {
    allowed: 201,
    request: async (r) => ({
      method: 'POST',
      path: '/api/issues',
      body: { clientId: (await r.client()).id, title: 'Matrix note' },
    }),
  },
  'PUT /api/issues/:id': {
    allowed: 200,
    request: async (r) => {
      const issue = await r.issue();
      return {
        method: 'PUT',
        path: `/api/issues/${issue.id}`,
        body: {
          serverId: null,
          appId: null,
          kind: 'problem',
          title: 'Matrix issue, edited',
          text: '',
          assigneeId: null,
          version: issue.version,
        },
      };
    },
  },
  'POST /api/issues/:id/resolve': {
    allowed: 200,
    request: async (r) => ({ method: 'POST', path: `/api/issues/${(await r.issue()).id}/resolve` }),
  },
  'POST /api/issues/:id/reopen': {
    allowed: 200,
    request: async (r) => ({
      method: 'POST',
      path: `/api/issues/${(await r.resolvedIssue()).id}/reopen`,
    }),
  },
  'GET /api/issues/:id/comments': {
    allowed: 200,
    request: async (r) => get(`/api/issues/${(await r.issue()).id}/comments`),
  },
  'POST /api/issues/:id/comments': {
    allowed: 201,
    request: async (r) => ({
      method: 'POST',
      path: `/api/issues/${(await r.issue()).id}/comments`,
      body: { text: 'Matrix comment' },
    }),
  },
  // The OpenAPI document and its Swagger UI page, with the page's files.
  [`GET ${OPENAPI_PATH}`]: { allowed: 200, request: async () => get(OPENAPI_PATH) },
  [`GET ${DOCS_PREFIX}`]: { allowed: 200, request: async () => get(DOCS_PREFIX) },
  [`GET ${DOCS_PREFIX}/`]: { allowed: 200, request: async () => get(`${DOCS_PREFIX}/`) },
  [`GET ${DOCS_PREFIX}/json`]: { allowed: 200, request: async () => get(`${DOCS_PREFIX}/json`) },
  [`GET ${DOCS_PREFIX}/yaml`]: { allowed: 200, request: async () => get(`${DOCS_PREFIX}/yaml`) },
  // Swagger UI's own redirect back to the page.
  [`GET ${DOCS_PREFIX}/static/index.html`]: {
    allowed: 302,
    request: async () => get(`${DOCS_PREFIX}/static/index.html`),
  },
  [`GET ${DOCS_PREFIX}/static/swagger-initializer.js`]: {
    allowed: 200,
    request: async () => get(`${DOCS_PREFIX}/static/swagger-initializer.js`),
  },
  [`GET ${DOCS_PREFIX}/static/*`]: {
    allowed: 200,
    request: async () => get(`${DOCS_PREFIX}/static/swagger-ui.css`),
  },
  // What api-docs-theme.ts adds to the page.
  [`GET ${DOCS_PREFIX}/static/theme/${API_DOCS_THEME.css}`]: {
    allowed: 200,
    request: async () => get(`${DOCS_PREFIX}/static/theme/${API_DOCS_THEME.css}`),
  },
  [`GET ${DOCS_PREFIX}/static/theme/${API_DOCS_THEME.js}`]: {
    allowed: 200,
    request: async () => get(`${DOCS_PREFIX}/static/theme/${API_DOCS_THEME.js}`),
  },
};

/** What a person should get from one route: its allowed answer, or a refusal with a status. */
type Expected = { allowed: true } | { refused: number };

/**
 * The people the matrix asks, table-driven: one more kind of person (e.g. one limited by tag,
 * expecting a 404 for a client outside their tags) is one more entry with its own `expect`.
 */
interface MatrixPerson {
  staff: 'admin' | 'editor' | 'viewer' | 'limited';
  /** Asks with an API token of this scope, made by that person, instead of their cookie. */
  token?: TokenScope;
  expect: (route: string) => Expected;
}

const byRole =
  (role: Role) =>
  (route: string): Expected =>
    can(role, ROUTE_PERMISSIONS[route]!) ? { allowed: true } : { refused: 403 };

/**
 * What an editor limited to 'elsewhere' gets for a record tagged 'matrix' (every record above):
 * a route about one client or server answers as for a client that does not exist, 404. A write
 * naming such a client in its body is refused as such a body is, 400 naming the field (a new
 * client without one of their tags, a server for a client they cannot see, an import of one);
 * bulk routes and an export of chosen ids answer 404 for ids they cannot reach, and so do the
 * routes of a credential no server uses that someone else made. Lists and their own account
 * answer as for any editor.
 */
const LIMITED_ANSWERS: Readonly<Record<string, Expected>> = {
  'GET /api/clients/:id': { refused: 404 },
  'GET /api/clients/:id/history': { refused: 404 },
  'GET /api/clients/:id/commands': { refused: 404 },
  'GET /api/clients/:id/password': { refused: 404 },
  'PUT /api/clients/:id': { refused: 404 },
  'DELETE /api/clients/:id': { refused: 404 },
  'POST /api/clients/:id/duplicate': { refused: 404 },
  'POST /api/clients/:id/restore': { refused: 404 },
  'POST /api/clients/bulk/tags': { refused: 404 },
  'POST /api/clients/bulk/delete': { refused: 404 },
  'POST /api/clients/bulk/restore': { refused: 404 },
  'POST /api/clients/export': { refused: 404 },
  'POST /api/clients': { refused: 400 },
  'POST /api/clients/import': { refused: 400 },
  'GET /api/servers/:id': { refused: 404 },
  'GET /api/servers/:id/history': { refused: 404 },
  'PUT /api/servers/:id': { refused: 404 },
  'DELETE /api/servers/:id': { refused: 404 },
  'POST /api/servers/:id/primary': { refused: 404 },
  'POST /api/servers/:id/host-key': { refused: 404 },
  'POST /api/servers/:id/check': { refused: 404 },
  'POST /api/servers': { refused: 400 },
  'GET /api/credentials/:id': { refused: 404 },
  'PUT /api/credentials/:id': { refused: 404 },
  'POST /api/credentials/:id/rotate': { refused: 404 },
  'DELETE /api/credentials/:id': { refused: 404 },
  'POST /api/credentials/:id/reveal': { refused: 404 },
  'GET /api/apps/:id': { refused: 404 },
  'PUT /api/apps/:id': { refused: 404 },
  'DELETE /api/apps/:id': { refused: 404 },
  'GET /api/apps/:id/runs': { refused: 404 },
  'POST /api/apps/:id/runs': { refused: 404 },
  'GET /api/runs/:id': { refused: 404 },
  'GET /api/runs/:id/log': { refused: 404 },
  'GET /api/runs/:id/log.txt': { refused: 404 },
  'POST /api/runs/:id/cancel': { refused: 404 },
  'POST /api/apps': { refused: 400 },
  'GET /api/issues/:id': { refused: 404 },
  'PUT /api/issues/:id': { refused: 404 },
  'POST /api/issues/:id/resolve': { refused: 404 },
  'POST /api/issues/:id/reopen': { refused: 404 },
  'GET /api/issues/:id/comments': { refused: 404 },
  'POST /api/issues/:id/comments': { refused: 404 },
  'POST /api/issues': { refused: 400 },
};

const limitedByTag = (route: string): Expected => {
  const byItsRole = byRole('editor')(route);
  return 'refused' in byItsRole ? byItsRole : (LIMITED_ANSWERS[route] ?? byItsRole);
};

/**
 * What a token of `scope` gets: what its owner's role gets, narrowed to its scope, and never a
 * session-only route (its tokens and sessions).
 */
const byToken =
  (role: Role, scope: TokenScope) =>
  (route: string): Expected => {
    const byItsRole = byRole(role)(route);
    if ('refused' in byItsRole) return byItsRole;
    if (SESSION_ONLY_ROUTES.has(route)) return { refused: 403 };
    return scopeAllows(scope, ROUTE_PERMISSIONS[route]!) ? byItsRole : { refused: 403 };
  };

const PEOPLE: readonly MatrixPerson[] = [
  { staff: 'admin', expect: byRole('admin') },
  { staff: 'editor', expect: byRole('editor') },
  { staff: 'viewer', expect: byRole('viewer') },
  { staff: 'limited', expect: limitedByTag },
  { staff: 'admin', token: 'write', expect: byToken('admin', 'write') },
  { staff: 'editor', token: 'read', expect: byToken('editor', 'read') },
  { staff: 'editor', token: 'read+secrets', expect: byToken('editor', 'read+secrets') },
  { staff: 'viewer', token: 'write', expect: byToken('viewer', 'write') },
];

/** The name a matrix person goes by in the test's title: `editor` or `editor's read token`. */
const personName = (person: MatrixPerson) =>
  person.token ? `${person.staff}'s ${person.token} token` : person.staff;

/** The route's key in ROUTE_PERMISSIONS: Fastify answers HEAD with the GET route. */
const keyOf = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;

/** The signed-in routes the app registered, each method once, HEAD beside GET included. */
function signedInRoutes(): { method: string; url: string }[] {
  const seen = new Set<string>();
  const routes: { method: string; url: string }[] = [];
  for (const route of t.server.app.registeredRoutes) {
    if (PUBLIC_ROUTES.has(route.url) || isWebAppFile(route.config)) continue;
    const name = `${route.method} ${route.url}`;
    if (seen.has(name)) continue;
    seen.add(name);
    routes.push({ method: route.method, url: route.url });
  }
  return routes;
}

/**
 * Sends with the person's cookie, or with only a token of theirs when they ask with one: one
 * token for the walk, whose requests stay well under a token's rate limit (600 a minute).
 */
async function sender(
  person: MatrixPerson,
): Promise<(request: RouteRequest) => Promise<{ status: number; body: unknown }>> {
  const session = t.staff[person.staff];
  if (!person.token)
    return (request) => sendRouteRequest(t.server.url, request, session.cookieHeader);
  const made = await session.json<CreatedToken>('POST', '/api/me/tokens', {
    name: 'Matrix',
    scope: person.token,
    expiresInDays: 30,
  });
  const authorization = `Bearer ${made.body.secret}`;
  return (request) => sendRouteRequest(t.server.url, request, undefined, { authorization });
}

async function eventCount(): Promise<number> {
  const row = await t.server.app.parts.db.kysely
    .selectFrom('event')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

let records: Records;
/**
 * Requests refused so far, by route (and asker, for their own things): their records are as
 * they were made, since a refusal writes nothing (checked), so the route's next refusal asks
 * about them again. Making records is most of this file's time.
 */
const refusedRequests = new Map<string, RouteRequest>();
beforeAll(async () => {
  records = new Records(t.staff.admin, await closedPort());
});

describe('the permission table', () => {
  it('names every signed-in route the app registered, and nothing else', () => {
    const registered = new Set(signedInRoutes().map((r) => keyOf(r.method, r.url)));
    expect([...registered].filter((key) => !(key in ROUTE_PERMISSIONS))).toEqual([]);
    expect(Object.keys(ROUTE_PERMISSIONS).filter((key) => !registered.has(key))).toEqual([]);
  });

  it('has a case in this matrix for every route it names', () => {
    expect(Object.keys(ROUTE_PERMISSIONS).sort()).toEqual(Object.keys(ROUTE_CASES).sort());
  });
});

describe('every signed-in route × every kind of person', () => {
  it.each(PEOPLE.map((person) => [personName(person), person] as const))(
    'answers %s as the permission table says',
    async (_, person) => {
      let checked = 0;
      const send = await sender(person);
      for (const route of signedInRoutes()) {
        const key = keyOf(route.method, route.url);
        const name = `${route.method} ${route.url} as ${personName(person)}`;
        const routeCase = ROUTE_CASES[key]!;
        const expected = person.expect(key);
        const reuseKey = `${route.method} ${route.url} ${routeCase.ownThings ? person.staff : ''}`;
        const request = ('refused' in expected && refusedRequests.get(reuseKey)) || {
          ...(await routeCase.request(records, t.staff[person.staff])),
          method: route.method,
        };
        const before = await eventCount();
        const answer = await send(request);
        if ('allowed' in expected) {
          // A HEAD answer is the GET route's, without a body.
          expect(answer.status, `${name}: ${JSON.stringify(answer.body)}`).toBe(routeCase.allowed);
        } else {
          expect(answer.status, name).toBe(expected.refused);
          if (route.method !== 'HEAD') {
            expect(answer.body, name).toMatchObject({ error: expect.any(String) as string });
          }
          // A refused request wrote nothing: no change, no recorded read.
          expect(await eventCount(), name).toBe(before);
          refusedRequests.set(reuseKey, request);
        }
        checked += 1;
      }
      expect(checked).toBe(signedInRoutes().length);
      expect(checked).toBeGreaterThanOrEqual(Object.keys(ROUTE_PERMISSIONS).length);
    },
    120_000,
  );

  it('refuses the viewer every write and secret, and allows them every read', () => {
    // The table itself, as the issue states the roles: a change to can() shows here.
    for (const [route, permission] of Object.entries(ROUTE_PERMISSIONS)) {
      const viewer = byRole('viewer')(route);
      expect('allowed' in viewer, route).toBe(permission === 'read' || permission === 'self');
      expect('allowed' in byRole('editor')(route), route).toBe(permission !== 'admin');
      expect('allowed' in byRole('admin')(route), route).toBe(true);
    }
  });
});
