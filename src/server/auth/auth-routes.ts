import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROVIDER_CALLBACK, acceptsProviderPost } from '#server/http/csrf.ts';
import { HttpError } from '#server/http/http-error.ts';
import { CLIENT_IP_HEADER, type Auth } from './auth.ts';

/**
 * Forwards /api/auth/* to Better Auth as a Fetch Request. The URL is built on PUBLIC_URL,
 * never on the Host header a client sends.
 */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth, publicUrl: string): void {
  // A provider with response_mode=form_post posts its answer to the callback as a form; Better
  // Auth turns that into its GET callback. Every other route takes JSON only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (request, body, done) => {
      if (!acceptsProviderPost(request.routeOptions.config)) {
        done(new HttpError(415, 'Unsupported Content-Type: send application/json'), undefined);
        return;
      }
      done(null, new URLSearchParams(body as string));
    },
  );
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = new Headers();
    for (const [key, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
    }
    headers.set(CLIENT_IP_HEADER, request.ip);
    const hasBody = request.method !== 'GET' && request.body !== undefined && request.body !== null;
    const response = await auth.handler(
      new Request(new URL(request.url, publicUrl), {
        method: request.method,
        headers,
        ...(hasBody
          ? {
              body:
                request.body instanceof URLSearchParams
                  ? request.body.toString()
                  : JSON.stringify(request.body),
            }
          : {}),
      }),
    );
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie') reply.header(key, value);
    });
    // Answers here carry sessions, an authenticator's secret and backup codes: never stored by
    // a browser's or a proxy's cache, as every secret-bearing answer of the app's own routes.
    reply.header('cache-control', 'no-store');
    // Better Auth says when to retry in a header of its own; the standard one is what
    // browsers, proxies and HTTP clients understand.
    const retryAfter = response.headers.get('x-retry-after');
    if (response.status === 429 && retryAfter) reply.header('retry-after', retryAfter);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const text = response.body ? await response.text() : '';
    if (response.status >= 400 && !namesTheProblem(text)) {
      // Better Auth answers an unknown path or a wrong method with an empty body; every
      // refusal of this server is JSON that says what went wrong.
      return reply
        .removeHeader('content-length')
        .header('content-type', 'application/json; charset=utf-8')
        .send({ error: refusalMessage(response.status, request.method, request.url) });
    }
    if (text !== '' && isJson(response.headers.get('content-type'))) {
      return reply.removeHeader('content-length').send(withoutSessionTokens(text));
    }
    return reply.send(text === '' ? null : text);
  };
  // No schema: described by hand in the OpenAPI document (http/better-auth-paths.ts).
  const schema = { hide: true };
  app.route({ method: ['GET', 'POST'], url: '/api/auth/*', schema, handler });
  // One path segment: `/api/auth/callback/../sign-in/email` is the sign-in route (Better Auth
  // resolves dot segments), and reaches the route above, not this one.
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/callback/:providerId',
    config: PROVIDER_CALLBACK,
    schema,
    handler,
  });
}

function namesTheProblem(text: string): boolean {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown } | null;
    return typeof body?.message === 'string' || typeof body?.error === 'string';
  } catch {
    return false;
  }
}

function refusalMessage(status: number, method: string, url: string): string {
  if (status === 404) return `No route ${method} ${url.split('?')[0]}`;
  if (status === 405) return `${method} is not allowed here`;
  return `The request was refused (${status})`;
}

function isJson(contentType: string | null): boolean {
  return (contentType ?? '').toLowerCase().startsWith('application/json');
}

/**
 * Better Auth puts session tokens (the unsigned part of the session cookie) in its JSON answers:
 * sign-in, get-session, and every session of the user from list-sessions. The cookie is
 * HttpOnly so that no script in the page can read it; the same value in a body any script can
 * read would undo that, so it goes. Nothing in the web app uses it.
 */
export function withoutSessionTokens(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const strip = (value: unknown, depth: number): void => {
    if (depth > 4 || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) strip(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    delete record.token;
    for (const item of Object.values(record)) strip(item, depth + 1);
  };
  strip(body, 0);
  return JSON.stringify(body);
}
