import type { RegisteredRoute } from '#server/http/route-registry.ts';

/** A concrete request for one registered route. */
export interface RouteRequest {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * Turns a registered route into a request that its handler would answer with success: path
 * parameters filled with real values (an existing client's id, or its server's for a server
 * route and its credential's for a vault route: a password or token, which a rotation's body
 * fits), a valid body for writes (one a server or vault route takes, for those). A guard
 * that let it through would show as a 2xx, not as a 404 or 400 that hides the hole.
 */
export function requestFor(
  route: RegisteredRoute,
  values: {
    id: string;
    serverId?: string;
    credentialId?: string;
    /** A webhook endpoint's id for `/api/webhooks/:id`, and one of its deliveries'. */
    webhookId?: string;
    deliveryId?: string;
    /** An app's id for `/api/apps/:id`, and one of its runs' for `/api/runs/:id`. */
    appId?: string;
    runId?: string;
    /** An issue's id for `/api/issues/:id…`. */
    issueId?: string;
    wildcard?: string;
    version?: number;
    credentialVersion?: number;
  },
): RouteRequest {
  const vault = route.url.startsWith('/api/credentials');
  const id = route.url.startsWith('/api/servers/')
    ? (values.serverId ?? values.id)
    : vault
      ? (values.credentialId ?? values.id)
      : route.url.startsWith('/api/webhooks/')
        ? (values.webhookId ?? values.id)
        : route.url.startsWith('/api/issues/')
          ? (values.issueId ?? values.id)
          : route.url.startsWith('/api/apps/')
            ? (values.appId ?? values.id)
            : route.url.startsWith('/api/runs/')
              ? (values.runId ?? values.id)
              : values.id;
  const path = route.url
    .replace(/:id\b/g, id)
    .replace(/:deliveryId\b/g, values.deliveryId ?? 'no-such-delivery')
    // An invitation token of the right shape that no invitation has.
    .replace(/:token\b/g, 'no-such-invitation-token')
    // A file of Swagger UI's for its files' route; a Better Auth route for its catch-all.
    .replace(
      /\*$/,
      route.url.startsWith('/api/docs/') ? 'swagger-ui.css' : (values.wildcard ?? 'get-session'),
    );
  const writes = route.method === 'POST' || route.method === 'PUT';
  if (!writes) return { method: route.method, path };
  const body = bodyFor(route, values);
  return body === undefined ? { method: route.method, path } : { method: route.method, path, body };
}

function bodyFor(
  route: RegisteredRoute,
  values: { id: string; serverId?: string; version?: number; credentialVersion?: number },
): unknown {
  const credentialVersion = values.credentialVersion ?? 1;
  switch (route.url) {
    case '/api/me/access-token':
      return { accessToken: 'route-request-token' };
    case '/api/me/tokens':
      return { name: 'Made by a route request', scope: 'read', expiresInDays: 30 };
    case '/api/credentials':
      return { name: 'Made by a route request', kind: 'token', secret: 'route-request-secret' };
    case '/api/credentials/:id':
      return { name: 'Changed by a route request', version: credentialVersion };
    case '/api/credentials/:id/rotate':
      return { version: credentialVersion, secret: 'route-request-rotated' };
    case '/api/credentials/:id/reveal':
      return { purpose: 'reveal' };
    case '/api/servers':
      return { clientId: values.id, label: 'Made by a route request' };
    case '/api/servers/:id':
      // A server's version is its own; a stale one is a 409, which still passed the guard.
      return { label: 'Changed by a route request', version: 1 };
    case '/api/webhooks':
      // Switched off: it makes no delivery to this address that nobody listens on.
      return {
        url: 'http://127.0.0.1:9/route-request',
        events: ['client.created'],
        enabled: false,
      };
    case '/api/issues':
      return { clientId: values.id, title: 'Made by a route request' };
    case '/api/issues/:id':
      // An issue's version is its own; a stale one is a 409, which still passed the guard.
      return {
        serverId: null,
        appId: null,
        kind: 'note',
        title: 'Changed by a route request',
        text: '',
        assigneeId: null,
        version: 1,
      };
    case '/api/issues/:id/comments':
      return { text: 'Written by a route request' };
    case '/api/apps':
      // A second one of the same name is the route's own 400, past the guard.
      return { clientId: values.id, serverId: values.serverId ?? '', name: 'Route request app' };
    case '/api/apps/:id':
      // An app's version is its own; a stale one is a 409, which still passed the guard.
      return { name: 'Changed by a route request', serverId: values.serverId ?? '', version: 1 };
    case '/api/apps/:id/runs':
    case '/api/runs/:id/cancel':
      return undefined;
    case '/api/servers/:id/host-key':
      // Accepted only when a check was offered this key: otherwise a 400 past the guard.
      return { fingerprint: `SHA256:${'A'.repeat(43)}` };
  }
  return route.method === 'PUT'
    ? { name: 'Changed by a route request', version: values.version ?? 1 }
    : { name: 'Made by a route request' };
}

/** Routes the registry lists, each method once (Fastify adds HEAD beside GET by itself). */
export function distinctRoutes(routes: readonly RegisteredRoute[]): RegisteredRoute[] {
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Sends one route request, with a session's cookie or none (and `headers`, e.g. an API
 * token's), and reads its answer. A stream (a
 * route left open) is cut after its head, and so is a HEAD answer (it has no body, but the
 * stream's route keeps its connection open all the same).
 */
export async function sendRouteRequest(
  baseUrl: string,
  request: RouteRequest,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const abort = new AbortController();
  const response = await fetch(new URL(request.path, baseUrl), {
    method: request.method,
    redirect: 'manual',
    signal: abort.signal,
    headers: {
      origin: baseUrl,
      ...(cookie ? { cookie } : {}),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (request.method === 'HEAD' || streamed) {
    abort.abort();
    return { status: response.status, body: request.method === 'HEAD' ? '' : 'stream' };
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a 204, a file): kept as text, for the caller's assertions to name.
  }
  return { status: response.status, body };
}
