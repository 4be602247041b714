import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import type { Selectable } from 'kysely';
import type { Db } from '#server/db/database.ts';
import type { UserTable } from '#server/db/schema.ts';
import { toBool } from '#server/db/codec.ts';
import { joinKey } from '#server/db/join-key.ts';
import { compiledRead } from '#server/db/compiled-read.ts';
import type { Auth } from './auth.ts';
import type { TokenUse } from './api-tokens.ts';

/** What the session guard needs of a session: Better Auth's getSession answer, narrowed. */
export interface FoundSession {
  session: { id: string };
  /** Set when the request came with an API token instead of a session (api-tokens.ts). */
  token?: TokenUse;
  user: {
    id: string;
    email: string;
    name: string;
    image?: string | null | undefined;
    emailVerified: boolean;
    disabled?: boolean | null | undefined;
    listView?: string | null | undefined;
    role?: string | null | undefined;
    tags?: string | null | undefined;
    twoFactorEnabled?: boolean | null | undefined;
  };
}

/**
 * The session of a request, as Better Auth's `getSession` finds it, in one indexed query for
 * the ordinary case. `getSession` itself costs about a millisecond of CPU a call (an endpoint
 * context, a WebCrypto HMAC, the adapter's generic queries and transforms): on every request
 * that is most of what the server does (docs/performance.md). This checks the session cookie's
 * HMAC-SHA256 signature as better-call makes it, and reads the session with its user. Nothing
 * is kept between requests: a signed-out, revoked or expired session, or a disabled user, is
 * refused on the very next request. Every other case goes to `getSession`, which answers it by
 * its own rules: no cookie or a bad signature, an unknown or expired session (it also deletes
 * that), one due for its hourly refresh (it moves the expiry), a "don't remember me" session.
 * session-check.test.ts pins this to `getSession`'s answers.
 */
export function sessionCheck(auth: Auth, db: Db) {
  const settings = auth.$context.then((ctx) => ({
    secret: ctx.secret,
    cookie: ctx.authCookies.sessionToken.name,
    dontRemember: ctx.authCookies.dontRememberToken.name,
    expiresIn: ctx.sessionConfig.expiresIn,
    updateAge: ctx.sessionConfig.updateAge,
  }));
  const betterAuth = async (
    headers: IncomingHttpHeaders,
    setCookies?: (cookies: string[]) => void,
  ): Promise<FoundSession | null> => {
    const answer = await auth.api.getSession({
      headers: fromNodeHeaders(headers),
      returnHeaders: true,
    });
    const cookies = answer.headers.getSetCookie();
    if (setCookies && cookies.length > 0) setCookies(cookies);
    return answer.response;
  };
  const sessionByToken = compiledRead((token: string) =>
    db.kysely
      .selectFrom('session')
      .innerJoin('user', 'user.id', 'session.userId')
      .select(['session.id as sessionId', 'session.expiresAt', ...SIGNED_IN_USER_COLUMNS])
      .where('session.token', '=', joinKey(token)),
  );

  /**
   * `setCookies` takes the cookies Better Auth sets on the way: the session's, renewed with its
   * expiry, or cleared when it has ended.
   */
  return async function findSession(
    headers: IncomingHttpHeaders,
    setCookies?: (cookies: string[]) => void,
  ): Promise<FoundSession | null> {
    const { secret, cookie, dontRemember, expiresIn, updateAge } = await settings;
    const header = headers.cookie;
    if (!header || cookieValue(header, dontRemember) !== undefined) {
      return betterAuth(headers, setCookies);
    }
    const signed = cookieValue(header, cookie);
    const token = signed === undefined ? undefined : verify(signed, secret);
    if (token === undefined) return betterAuth(headers, setCookies);
    const [found] = await sessionByToken(db.kysely, token);
    if (!found) return betterAuth(headers, setCookies);
    const expiresAt = new Date(found.expiresAt).getTime();
    const now = Date.now();
    // Expired, or due for the refresh that moves its expiry: Better Auth's own rules.
    if (!(expiresAt > now) || expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) {
      return betterAuth(headers, setCookies);
    }
    return {
      session: { id: found.sessionId },
      user: foundUserOf(found),
    };
  };
}

/** The user's columns the session guard reads with a session or with an API token. */
export const SIGNED_IN_USER_COLUMNS = [
  'user.id',
  'user.email',
  'user.name',
  'user.image',
  'user.emailVerified',
  'user.disabled',
  'user.listView',
  'user.role',
  'user.tags',
  'user.twoFactorEnabled',
] as const;

/** A row with those columns, as the guard takes a found user. */
export function foundUserOf(
  row: Pick<
    Selectable<UserTable>,
    | 'id'
    | 'email'
    | 'name'
    | 'image'
    | 'emailVerified'
    | 'disabled'
    | 'listView'
    | 'role'
    | 'tags'
    | 'twoFactorEnabled'
  >,
): FoundSession['user'] {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    image: row.image,
    emailVerified: toBool(row.emailVerified),
    disabled: toBool(row.disabled),
    listView: row.listView,
    role: row.role,
    tags: row.tags,
    twoFactorEnabled: toBool(row.twoFactorEnabled),
  };
}

/** The token inside a signed cookie value, or undefined when the signature is not ours. */
function verify(signed: string, secret: string): string | undefined {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return undefined;
  const value = signed.slice(0, dot);
  const encoded = signed.slice(dot + 1);
  // better-call's own shape check; Buffer would also decode a mangled string.
  if (!/^[A-Za-z0-9+/]{43}=$/.test(encoded)) return undefined;
  const signature = Buffer.from(encoded, 'base64');
  const expected = createHmac('sha256', secret).update(value).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
    return undefined;
  }
  return value;
}

/** The first cookie called `name`, as better-call reads it (quotes stripped, URI-decoded). */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      return value;
    }
  }
  return undefined;
}
