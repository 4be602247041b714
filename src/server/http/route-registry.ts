import type { FastifyInstance } from 'fastify';

/** One method of one registered route, by the path it was registered with. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's config as registered (@fastify/static puts the file it serves there). */
  config: unknown;
  /** The route's schema as registered: the OpenAPI test holds every route to having one. */
  schema?: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order: the route-guard test walks them all. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/**
 * Records every route registered after this call (plugins' routes included: an onRoute hook
 * of the root sees its children's routes), so tests can prove each one is guarded or public
 * without a hand-kept list that a new route could be missing from.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      routes.push({ method, url: route.url, config: route.config, schema: route.schema });
  });
}
