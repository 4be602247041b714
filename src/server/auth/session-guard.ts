import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ACCOUNT_DISABLED_CODE,
  EMAIL_NOT_ALLOWED_CODE,
  EMAIL_NOT_VERIFIED_CODE,
} from '#shared/api-error.ts';
import { listViewSchema, type ListView } from '#shared/account.ts';
import { can, roleSchema, type Access, type Permission, type Role } from '#shared/people.ts';
import { CLOSED_UNTIL_SECOND_FACTOR, permissionFor, routeKey } from './route-permissions.ts';
import { isEmailAllowed, notAllowedMessage, type Allowlist } from './allowlist.ts';
import { ACCOUNT_DISABLED_MESSAGE, type Auth } from './auth.ts';
import type { Actor } from '#shared/events.ts';
import { HttpError } from '#server/http/http-error.ts';
import type { Db } from '#server/db/database.ts';
import { sessionCheck, type FoundSession } from './session-check.ts';
import { parseAccessTags } from './access-tags.ts';
import { SECRET_REFUSED_MESSAGE } from './secret-access.ts';
import { isWebAppFile } from '#server/http/static-files.ts';
import { bearerToken } from '#server/http/bearer-token.ts';
import { secondFactorGate } from './second-factors.ts';
import {
  TOKEN_STREAM_PREFIX,
  TokenRefusal,
  refuseToken,
  tokenCheck,
  tokenRefusalFor,
  tokenRole,
  type TokenUse,
} from './api-tokens.ts';

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
  listView: ListView;
  role: Role;
  /** The tags this person is limited to; null: every client. */
  tags: readonly string[] | null;
  twoFactorEnabled: boolean;
  /** REQUIRE_2FA asks this person to set up a second factor before anything else. */
  secondFactorRequired: boolean;
  /** The API token the request came with; null for a session. */
  token: TokenUse | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SignedInUser | null;
    /** The session's id; for an API token, its key (TOKEN_STREAM_PREFIX and the token's id). */
    sessionId: string | null;
  }
}

/**
 * The routes that answer without a session, by the path they were registered with: sign-in and
 * the rest of Better Auth, what the sign-in screen needs, and the health checks. Files of the
 * built web app are public too. Every other route needs a session, a route added later
 * included (src/server/auth/route-guard.test.ts fails for a route that is on neither side).
 */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  '/api/auth/*',
  '/api/auth/callback/:providerId',
  '/api/config',
  // The sign-up page's invitation link; answers only with the invited address (or 404).
  '/api/invitations/:token',
  '/healthz',
  '/readyz',
]);

/**
 * Decided on the route the router matched, never on the raw URL: the router decodes the path,
 * so `/%61pi/clients` reaches the `/api/clients` route while its URL does not start with
 * `/api/` (a guard deciding on the URL would let it through without a session).
 */
export function isPublicRequest(request: FastifyRequest): boolean {
  // No route matched: the web app's history fallback or a 404. Unknown API paths stay behind
  // the guard, so they reveal nothing to someone without a session.
  if (request.is404) return !request.url.startsWith('/api/');
  const { url, config } = request.routeOptions;
  return (url !== undefined && PUBLIC_ROUTES.has(url)) || isWebAppFile(config);
}

/** Better Auth's routes: sign-in and sign-up, and those of a signed-in person's own account. */
function isBetterAuthRoute(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith('/api/auth/') === true;
}

/**
 * One guard for every route: a valid session of a verified, enabled user, or 401/403 JSON. The
 * server enforces it; the original only redirected in the browser and let the route load anyway.
 */
export function registerSessionGuard(
  app: FastifyInstance,
  auth: Auth,
  db: Db,
  allowlist: Allowlist,
  require2fa = false,
  tokenRateLimitPerMinute = 600,
): void {
  const findSession = sessionCheck(auth, db);
  const findToken = tokenCheck(db, tokenRateLimitPerMinute);
  const secondFactorRefusal = secondFactorGate(db, require2fa);
  /**
   * Better Auth's own routes answer without the guard, and would serve a session the guard
   * refuses (a disabled person's, one the narrowed allowlists leave out, or one of an address
   * nobody verified, as a provider's sign-in made before providers had to verify it) there:
   * its name, password and second factors changed by someone shut out. That person's sessions
   * end instead, and Better Auth answers the request as it would without them.
   */
  const endRefusedSessions = async (session: FoundSession | null) => {
    if (!session || !shutOut(session.user, allowlist)) return;
    await db.kysely.deleteFrom('session').where('userId', '=', session.user.id).execute();
  };
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request, reply) => {
    const setCookies = (cookies: string[]) => void reply.header('set-cookie', cookies);
    if (isPublicRequest(request)) {
      if (isBetterAuthRoute(request) && request.headers.cookie) {
        await endRefusedSessions(await findSession(request.headers, setCookies));
      }
      return;
    }
    // With a bearer token the cookies are not looked at: the token alone decides.
    const bearer = bearerToken(request.headers);
    const found =
      bearer === undefined
        ? await findSession(request.headers, setCookies)
        : await findToken(bearer);
    if (found instanceof TokenRefusal) refuseToken(reply, found);
    const refusal = admit(request, found, allowlist);
    if (refusal) throw refusal;
    // No route matched: the not-found answer says so, to anyone signed in.
    if (request.is404) return;
    const needed = permissionFor(request);
    const ownAccount = needed === 'self' && !CLOSED_UNTIL_SECOND_FACTOR.has(routeKey(request));
    const noFactor = await secondFactorRefusal(request.user!, ownAccount);
    if (noFactor) throw noFactor;
    if (needed === undefined || !can(request.user!.role, needed)) {
      throw new HttpError(403, refusedMessage(needed));
    }
    const token = request.user!.token;
    const tokenRefusal = token && tokenRefusalFor(request, token, needed);
    if (tokenRefusal) throw tokenRefusal;
  });
}

function refusedMessage(needed: Permission | undefined): string {
  switch (needed) {
    case 'admin':
      return 'Only an administrator may do this';
    case 'secret':
      return SECRET_REFUSED_MESSAGE;
    case 'write':
      return 'Your role may read but not change anything';
    default:
      return 'Your role may not do this';
  }
}

// Made once: building a zod schema costs more than parsing with it, on every request.
const storedListView = listViewSchema.catch('list');
const storedRole = roleSchema.catch('viewer');

/**
 * Why a person with a session is shut out, if they are. An address nobody verified has no
 * session in the app's own flows; one a provider's sign-in made before providers had to verify
 * it may. Disabling ends their sessions too; this
 * catches one created in the moment between its check at sign-in and the disabling. Narrowing
 * the allowlists (and restarting) shuts out the people it leaves out at once, not when their
 * sessions expire: sign-in alone would let a session live on for weeks.
 */
function shutOut(
  user: FoundSession['user'],
  allowlist: Allowlist,
): 'unverified' | 'disabled' | 'not-allowed' | undefined {
  if (!user.emailVerified) return 'unverified';
  if (user.disabled) return 'disabled';
  if (!isEmailAllowed(user.email, allowlist)) return 'not-allowed';
  return undefined;
}

/** Sets the request's user when the session lets it in, else the refusal to answer with. */
function admit(
  request: FastifyRequest,
  session: FoundSession | null,
  allowlist: Allowlist,
): HttpError | undefined {
  if (!session) return new HttpError(401, 'Sign in to continue');
  const out = shutOut(session.user, allowlist);
  if (out === 'unverified')
    return new HttpError(403, 'Verify your email address to continue', {
      code: EMAIL_NOT_VERIFIED_CODE,
    });
  if (out === 'disabled')
    return new HttpError(403, ACCOUNT_DISABLED_MESSAGE, { code: ACCOUNT_DISABLED_CODE });
  if (out === 'not-allowed')
    return new HttpError(403, notAllowedMessage(session.user.email), {
      code: EMAIL_NOT_ALLOWED_CODE,
    });
  request.sessionId = session.token
    ? `${TOKEN_STREAM_PREFIX}${session.token.id}`
    : session.session.id;
  request.user = {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    image: session.user.image ?? null,
    emailVerified: session.user.emailVerified,
    // The column's default, and a check: a value written some other way reads as the list.
    listView: storedListView.parse(session.user.listView),
    // An unreadable role (written some other way) grants the least, never the most.
    role: storedRole.parse(session.user.role),
    tags: parseAccessTags(session.user.tags),
    twoFactorEnabled: session.user.twoFactorEnabled === true,
    secondFactorRequired: false,
    token: session.token ?? null,
  };
  return undefined;
}

export function requireUser(request: FastifyRequest): SignedInUser {
  if (!request.user) throw new HttpError(401, 'Sign in to continue');
  return request.user;
}

/** What the signed-in person may see and do (their role and tag limit; with an API token, never an admin's). */
export function accessOf(user: SignedInUser): Access {
  return { userId: user.id, role: user.token ? tokenRole(user.role) : user.role, tags: user.tags };
}

/** The signed-in user as history names them: by email, which they cannot change. */
export function actorOf(user: SignedInUser): Actor {
  return { id: user.id, name: user.email };
}
