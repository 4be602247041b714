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
 * route), a valid body for writes (one a server route takes, for those). A guard
 * that let it through would show as a 2xx, not as a 404 or 400 that hides the hole.
 */
export function requestFor(
  route: RegisteredRoute,
  values: { id: string; serverId?: string; wildcard?: string; version?: number },
): RouteRequest {
  const id = route.url.startsWith('/api/servers/') ? (values.serverId ?? values.id) : values.id;
  const path = route.url.replace(/:id\b/g, id).replace(/\*$/, values.wildcard ?? 'get-session');
  const writes = route.method === 'POST' || route.method === 'PUT';
  if (!writes) return { method: route.method, path };
  return { method: route.method, path, body: bodyFor(route, values) };
}

function bodyFor(route: RegisteredRoute, values: { id: string; version?: number }): unknown {
  switch (route.url) {
    case '/api/me/access-token':
      return { accessToken: 'route-request-token' };
    case '/api/servers':
      return { clientId: values.id, label: 'Made by a route request' };
    case '/api/servers/:id':
      // A server's version is its own; a stale one is a 409, which still passed the guard.
      return { label: 'Changed by a route request', version: 1 };
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
