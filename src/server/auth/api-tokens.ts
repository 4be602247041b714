import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission, Role } from '#shared/people.ts';
import { TOKEN_PREFIX, scopeAllows, tokenScopeSchema, type TokenScope } from '#shared/tokens.ts';
import type { Db } from '#server/db/database.ts';
import { toBool } from '#server/db/codec.ts';
import { HttpError } from '#server/http/http-error.ts';
import { SIGNED_IN_USER_COLUMNS, foundUserOf, type FoundSession } from './session-check.ts';
import { routeKey } from './route-permissions.ts';

/** The API token a request came with, on its user (request.user.token). */
export interface TokenUse {
  id: string;
  scope: TokenScope;
  /** Set when the request was let at a secret: the audit trail records it once it succeeded. */
  secretUsed: boolean;
}

/**
 * Routes a token never reaches, whatever its scope: managing tokens and sessions needs the
 * person themselves, signed in (a leaked token must not mint another or outlive its own
 * revocation), and so does setting the deployment access token.
 */
export const SESSION_ONLY_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/me/tokens',
  'POST /api/me/tokens',
  'DELETE /api/me/tokens/:id',
  'GET /api/me/sessions',
  'POST /api/me/sessions/revoke-others',
  'PUT /api/me/access-token',
]);

/**
 * What a token's requests may see of what its owner's role decides beyond the route table:
 * never an administrator's view (the live stream's audit trail of people), whatever the owner.
 */
export function tokenRole(role: Role): Role {
  return role === 'admin' ? 'editor' : role;
}

/**
 * The key a token's live stream is checked by (stream-access.ts), in place of a session's id:
 * the stream ends when the token is revoked or expires, or its owner is disabled.
 */
export const TOKEN_STREAM_PREFIX = 'api-token:';

/** The longest token looked up; ours are far shorter. */
const MAX_TOKEN_LENGTH = 200;

/** SHA-256 of a token, hex: what the table keeps and is searched by. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A refusal of a token, with the seconds to wait for a rate-limited one. */
export class TokenRefusal extends HttpError {
  readonly retryAfter: number | undefined;
  constructor(statusCode: number, message: string, retryAfter?: number) {
    super(statusCode, message);
    this.retryAfter = retryAfter;
  }
}

const INVALID = 'This API token is not valid: it was revoked, or never existed';

/**
 * Finds the owner of an API token as the session guard finds a session's user, read fresh on
 * every request (so a disabled owner, or a narrowed role or tag limit, applies at once), and
 * counts the request against the token's rate limit in the same statement that records its
 * last use. The answers never repeat the token.
 */
export function tokenCheck(db: Db, perMinute: number) {
  const { kysely, dialect } = db;
  const time = (date: Date) => (dialect === 'postgres' ? date : date.toISOString());

  return async function findToken(token: string): Promise<FoundSession | TokenRefusal> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) {
      return new TokenRefusal(401, INVALID);
    }
    const found = await kysely
      .selectFrom('apiToken')
      .innerJoin('user', 'user.id', 'apiToken.userId')
      .select([
        'apiToken.id as tokenId',
        'apiToken.scope',
        'apiToken.expiresAt',
        ...SIGNED_IN_USER_COLUMNS,
      ])
      .where('apiToken.tokenHash', '=', hashApiToken(token))
      .executeTakeFirst();
    if (!found) return new TokenRefusal(401, INVALID);
    const now = new Date();
    if (found.expiresAt !== null && new Date(found.expiresAt).getTime() <= now.getTime()) {
      return new TokenRefusal(401, 'This API token has expired: create a new one in Settings');
    }
    if (toBool(found.disabled)) {
      return new TokenRefusal(401, 'The owner of this API token is disabled');
    }
    const limited = await countRequest(found.tokenId, now);
    if (limited) return limited;
    return {
      session: { id: '' },
      // An unreadable scope (written some other way) grants the least.
      token: {
        id: found.tokenId,
        scope: tokenScopeSchema.catch('read').parse(found.scope),
        secretUsed: false,
      },
      // Checked above: a disabled owner's token is refused with its own message.
      user: foundUserOf(found),
    };
  };

  /**
   * One minute-long window per token, kept in its row so that every instance counts together:
   * a request in a window older than a minute starts a new one. Returns the refusal when the
   * window is full.
   */
  async function countRequest(id: string, now: Date): Promise<TokenRefusal | undefined> {
    const cutoff = time(new Date(now.getTime() - 60_000));
    const at = time(now);
    const row = await kysely
      .updateTable('apiToken')
      .set((eb) => {
        const stale = eb.or([
          eb('windowStartedAt', 'is', null),
          eb('windowStartedAt', '<=', cutoff),
        ]);
        return {
          windowCount: eb
            .case()
            .when(stale)
            .then(1)
            .else(eb('windowCount', '+', 1))
            .end(),
          windowStartedAt: eb.case().when(stale).then(at).else(eb.ref('windowStartedAt')).end(),
          lastUsedAt: at,
        };
      })
      .where('id', '=', id)
      .returning(['windowCount', 'windowStartedAt'])
      .executeTakeFirst();
    // Revoked in the moment since it was read.
    if (!row) return new TokenRefusal(401, INVALID);
    if (Number(row.windowCount) <= perMinute) return undefined;
    const started = row.windowStartedAt === null ? now : new Date(row.windowStartedAt);
    const wait = Math.max(1, Math.ceil((started.getTime() + 60_000 - now.getTime()) / 1000));
    return new TokenRefusal(
      429,
      `Too many requests with this API token: at most ${perMinute} a minute. Try again in ${wait} s.`,
      wait,
    );
  }
}

/** Answers a token's refusal: a rate-limited one says when to try again. */
export function refuseToken(reply: FastifyReply, refusal: TokenRefusal): never {
  if (refusal.retryAfter !== undefined) reply.header('retry-after', String(refusal.retryAfter));
  throw refusal;
}

/**
 * Why a token request may not go on, beyond its owner's role: a session-only route, or a
 * permission its scope lacks. A request let at a secret is marked for the audit trail.
 */
export function tokenRefusalFor(
  request: FastifyRequest,
  token: TokenUse,
  needed: Permission,
): HttpError | undefined {
  if (SESSION_ONLY_ROUTES.has(routeKey(request))) {
    return new HttpError(403, 'API tokens cannot do this: sign in to Clients Manager instead');
  }
  if (!scopeAllows(token.scope, needed)) {
    return new HttpError(403, `This API token's scope (${token.scope}) does not allow this`);
  }
  if (needed === 'secret') token.secretUsed = true;
  return undefined;
}
