import { describe, expect, it } from 'vitest';
import { serveThisFile } from '#server/testing/file-server.ts';
import { Session } from '#server/testing/test-server.ts';

const t = serveThisFile({
  env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000' },
  staff: { member: { name: 'Member' } },
});

/** What a body can be besides the object a route expects: none, JSON null, an array, text. */
const ODD_BODIES: (string | undefined)[] = [undefined, 'null', '[]', '"text"', '0'];

interface Endpoint {
  path?: string;
  options?: { method?: string | string[] };
}

/** Better Auth's routes and their methods; those that end sessions last. */
function betterAuthRoutes(): { method: string; path: string }[] {
  const routes = Object.values(t.server.app.parts.auth.api as Record<string, Endpoint>).flatMap(
    (endpoint) => {
      const { path } = endpoint;
      const method = endpoint.options?.method;
      if (!path || !method) return [];
      const methods = (Array.isArray(method) ? method : [method]).filter(
        (m) => m === 'GET' || m === 'POST',
      );
      return methods.map((m) => ({ method: m, path }));
    },
  );
  const ends = (path: string) => /sign-out|revoke|delete/.test(path);
  return routes.sort((a, b) => Number(ends(a.path)) - Number(ends(b.path)));
}

describe("Better Auth's routes, sent a body that is not an object", () => {
  it.each([
    ['signed out', false],
    ['signed in', true],
  ])('answer 4xx or success, never 5xx, %s', async (_, signedIn) => {
    const routes = betterAuthRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const session = signedIn ? t.staff.member : new Session(t.server);
    const failures: string[] = [];
    for (const { method, path } of routes) {
      for (const body of method === 'POST' ? ODD_BODIES : [undefined]) {
        const answer = await session.request(method, `/api/auth${path}`, body);
        if (answer.status >= 500) failures.push(`${method} ${path} ${body ?? '(none)'}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("Better Auth's routes, sent text no database here can store", () => {
  it('refuse NUL in a query or anywhere in a body with 400, naming where', async () => {
    const session = new Session(t.server);
    const callback = await session.json<{ message: string }>(
      'GET',
      '/api/auth/callback/google?code=%00&state=%00',
    );
    expect(callback.status).toBe(400);
    expect(callback.body.message).toMatch(/^(code|state): Must not contain NUL/);
    const nested = await session.json<{ message: string }>('POST', '/api/auth/sign-in/email', {
      email: 'someone@example.com',
      password: 'a long pass phrase',
      fetchOptions: { headers: ['\u0000'] },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toMatch(/^fetchOptions\.headers\.0: Must not contain NUL/);
  });
});
