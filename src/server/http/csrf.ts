import type { FastifyInstance } from 'fastify';
import { isProviderCallback } from '../auth/auth-routes.ts';
import { HttpError } from './http-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing API calls that a browser marks as coming from another site. Cookies
 * are SameSite=Lax already; this closes the same-site subdomain and older-browser gaps. It
 * covers the auth routes too: Better Auth checks the origin only when cookies are present, which
 * leaves sign-in open to login CSRF (signing a victim into the attacker's account).
 */
export function registerCsrfCheck(app: FastifyInstance, publicUrl: string): void {
  const allowed = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    // Every state-changing request, whatever its path: the router decodes `/%61pi/…` to an
    // API route, so a check on the raw URL's prefix could be stepped around.
    if (SAFE_METHODS.has(request.method)) return;
    // A provider may post its answer back from its own site (response_mode=form_post); state
    // and PKCE protect that route instead.
    if (isProviderCallback(request.url)) return;
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if (origin !== undefined && origin !== allowed) {
      // Most often not an attack but the app opened at another address than PUBLIC_URL names
      // (127.0.0.1 for localhost, a new host name): say which address works.
      throw new HttpError(
        403,
        `Refused: this page was opened at ${origin.slice(0, 200)}, but Clients Manager answers at ${allowed} (PUBLIC_URL). Open ${allowed} instead.`,
      );
    }
    if (site === 'cross-site' || site === 'same-site') {
      throw new HttpError(403, 'Cross-site request refused');
    }
  });
}
