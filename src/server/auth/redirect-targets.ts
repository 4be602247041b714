import { APIError } from 'better-auth/api';

/** The fields of a Better Auth request, in its query or body, that say where to send a browser. */
const REDIRECT_FIELDS = ['callbackURL', 'redirectTo', 'errorCallbackURL', 'newUserCallbackURL'];

/**
 * Why `value` is no place to send a person, or null if it is a page of the app at `publicUrl`.
 *
 * Better Auth's origin check takes `/.//evil.example/x` for a path of ours, and its error
 * redirects rebuild a relative target from the resolved URL: dot segments go, and the browser
 * gets `Location: //evil.example/x`, another site. So the target is judged as the browser will
 * see it: resolved against PUBLIC_URL (which also removes dot segments, `%2e` included, and
 * reads `\` as `/`), it must be on PUBLIC_URL's origin, and its path must not start with `//`,
 * which a relative Location of that path would make protocol-relative. No page of the app
 * has a path beginning with an empty segment, so nothing legitimate is refused.
 */
export function offAppReason(value: string, publicUrl: string): string | null {
  let target: URL;
  try {
    target = new URL(value, publicUrl);
  } catch {
    return 'Must be a URL or a path of this app';
  }
  if (target.origin !== new URL(publicUrl).origin) return 'Must be a page of this app';
  if (target.pathname.startsWith('//'))
    return 'Must be a page of this app, not a path starting with //';
  return null;
}

/**
 * Refuses a request whose query or body names a redirect target off the app, as Better Auth's
 * own origin check does (403), with a message that names the field.
 */
export function refuseOffAppRedirects(
  request: { query?: unknown; body?: unknown },
  publicUrl: string,
): void {
  for (const source of [request.query, request.body]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const field of REDIRECT_FIELDS) {
      const value: unknown = (source as Record<string, unknown>)[field];
      // Not text: Better Auth's schemas refuse it.
      if (typeof value !== 'string' || value === '') continue;
      const reason = offAppReason(value, publicUrl);
      if (reason !== null) {
        throw new APIError('FORBIDDEN', {
          code: 'INVALID_REDIRECT_TARGET',
          message: `${field}: ${reason}`,
        });
      }
    }
  }
}
