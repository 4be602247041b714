import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { ACCOUNT_DISABLED_MESSAGE, type Auth } from './auth.ts';
import { HttpError } from '../http/http-error.ts';

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
}

/** Who did something, as the event log records it. */
export interface Actor {
  id: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SignedInUser | null;
    sessionId: string | null;
  }
}

/** Routes under /api that answer without a session. Everything else requires one. */
export const PUBLIC_API_PREFIXES = ['/api/auth/', '/api/config'] as const;

export function isPublicApiPath(path: string): boolean {
  return PUBLIC_API_PREFIXES.some((p) => path === p || path.startsWith(p));
}

/**
 * One guard for all of /api: a valid session of a verified user, or 401/403 JSON. The server
 * enforces it; the original only redirected in the browser and let the route load anyway.
 */
export function registerSessionGuard(app: FastifyInstance, auth: Auth): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') || isPublicApiPath(path)) return;
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    if (!session) throw new HttpError(401, 'Sign in to continue');
    if (!session.user.emailVerified)
      throw new HttpError(403, 'Verify your email address to continue');
    if (session.user.disabled) throw new HttpError(403, ACCOUNT_DISABLED_MESSAGE);
    request.sessionId = session.session.id;
    request.user = {
      id: session.user.id,
      email: session.user.email,
      name: session.user.name,
      image: session.user.image ?? null,
      emailVerified: session.user.emailVerified,
    };
  });
}

export function requireUser(request: FastifyRequest): SignedInUser {
  if (!request.user) throw new HttpError(401, 'Sign in to continue');
  return request.user;
}

export function actorOf(user: SignedInUser): Actor {
  return { id: user.id, name: user.name.trim() || user.email };
}
