import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.ts';
import { bearerToken } from './bearer-token.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See REFUSE_CROSS_SITE. */
    refuseCrossSite?: boolean;
    /** See PROVIDER_CALLBACK. */
    providerCallback?: boolean;
  }
}

/**
 * Route config for a GET that reveals a secret or writes (a password read, an export with
 * passwords, a command carrying the access token): to another site it is a write, since a
 * hostile page can navigate a signed-in browser to it. Such a route refuses cross-site requests
 * as writes do. cross-site-reads.test.ts lists them and proves every other GET harmless.
 */
export const REFUSE_CROSS_SITE = { refuseCrossSite: true } as const;

/**
 * Route config of the sign-in providers' callback: a provider may post its answer back from its
 * own site (response_mode=form_post), so state and PKCE protect that route instead.
 */
export const PROVIDER_CALLBACK = { providerCallback: true } as const;

export function acceptsProviderPost(config: unknown): boolean {
  return (config as { providerCallback?: unknown } | undefined)?.providerCallback === true;
}

export function refusesCrossSite(config: unknown): boolean {
  return (config as { refuseCrossSite?: unknown } | undefined)?.refuseCrossSite === true;
}

/**
 * Refuses state-changing API calls that a browser marks as coming from another site. Cookies
 * are SameSite=Lax already; this closes the same-site subdomain and older-browser gaps. It
 * covers the auth routes too: Better Auth checks the origin only when cookies are present, which
 * leaves sign-in open to login CSRF (signing a victim into the attacker's account).
 */
export function registerCsrfCheck(app: FastifyInstance, publicUrl: string): void {
  const allowed = new URL(publicUrl).origin;
  // A callback, not an async function: it runs on every request, and an async hook costs a
  // promise and a later job even when it returns at once.
  app.addHook('onRequest', (request, _reply, done) => done(refusal(request, allowed)));
}

/**
 * A request with an API token (`Authorization: Bearer …`) is no browser's cross-site request:
 * a page cannot make a browser send that header to another site (it takes CORS, which this
 * server grants nobody), and the session guard then decides by the token alone, ignoring
 * cookies. Better Auth's own routes do read cookies whatever the header says, so they stay
 * checked.
 */
function carriesBearerToken(request: FastifyRequest): boolean {
  if (bearerToken(request.headers) === undefined) return false;
  return !(request.routeOptions.url ?? request.url).startsWith('/api/auth/');
}

/** Why this request is refused, or undefined when it may go on. */
function refusal(request: FastifyRequest, allowed: string): HttpError | undefined {
  // Every state-changing request, whatever its path: the router decodes `/%61pi/…` to an
  // API route, so a check on the raw URL's prefix could be stepped around. A GET is decided on
  // the route the router matched, for the same reason.
  if (SAFE_METHODS.has(request.method) && !refusesCrossSite(request.routeOptions.config)) return;
  if (acceptsProviderPost(request.routeOptions.config)) return;
  if (carriesBearerToken(request)) return;
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (origin !== undefined && origin !== allowed) {
    // Most often not an attack but the app opened at another address than PUBLIC_URL names
    // (127.0.0.1 for localhost, a new host name): say which address works.
    return new HttpError(
      403,
      `Refused: this page was opened at ${origin.slice(0, 200)}, but Clients Manager answers at ${allowed} (PUBLIC_URL). Open ${allowed} instead.`,
    );
  }
  if (site === 'cross-site' || site === 'same-site') {
    return new HttpError(403, 'Cross-site request refused');
  }
  return undefined;
}
