import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startGoogleTestServer,
  type GoogleTestServer,
} from '#server/testing/google-test-server.ts';
import { Session, uniqueEmail, type TestServer } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile();
afterEach(() => {
  vi.useRealTimers();
});

const attempt = (headers: Record<string, string> = {}) =>
  new Session(t.server).request(
    'POST',
    '/api/auth/sign-in/email',
    { email: 'nobody@example.test', password: 'wrong password' },
    headers,
  );

describe('auth rate limits', () => {
  it('answer 429 with Retry-After after 10 sign-in attempts a minute, whatever X-Forwarded-For says, then recover', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const response = await attempt({ 'x-forwarded-for': `10.0.0.${i}` });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // The counts live in the database, shared by every instance.
    const rows = await t.server.app.parts.db.kysely.selectFrom('rateLimit').select('key').execute();
    expect(rows.some((r) => r.key.includes('/sign-in/email'))).toBe(true);

    vi.setSystemTime(Date.now() + (Number(retryAfter) + 1) * 1000);
    expect((await attempt()).status).toBe(401);
  });
});

describe('every rate-limited auth route', () => {
  // Low, so that each route reaches its limit in a few requests; odd, so that "half" is
  // rounded down (5 → 2), as auth.ts does.
  const PER_MINUTE = 5;
  const half = Math.max(1, Math.floor(PER_MINUTE / 2));
  let limited: TestServer;
  let google: GoogleTestServer;

  beforeAll(async () => {
    google = await startGoogleTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) });
    limited = google.server;
  });
  afterAll(async () => google?.close());

  /** Each route, its limit as auth.ts computes it, and what an allowed request answers. */
  const routes: [path: string, max: number, status: number, body: () => unknown][] = [
    ['/sign-in/email', PER_MINUTE, 401, () => ({ email: uniqueEmail(), password: 'wrong pw 12' })],
    [
      '/sign-in/social',
      PER_MINUTE * 2,
      200,
      () => ({ provider: 'google', callbackURL: '/', errorCallbackURL: '/sign-in' }),
    ],
    [
      '/sign-up/email',
      PER_MINUTE,
      200,
      () => ({ email: uniqueEmail('rl'), password: 'long enough pw', name: 'R' }),
    ],
    ['/request-password-reset', half, 200, () => ({ email: uniqueEmail(), redirectTo: '/reset' })],
    ['/send-verification-email', half, 200, () => ({ email: uniqueEmail(), callbackURL: '/' })],
    // Checks the password chosen at sign-up, once the link's token is good.
    ['/confirm-email', PER_MINUTE, 400, () => ({ token: 'not a token', password: 'a guess 1' })],
  ];

  it('uses the configured limit', () => {
    expect(limited.config.authRateLimitPerMinute).toBe(PER_MINUTE);
  });

  it.each(routes)(
    'POST /api/auth%s answers normally %i times a minute, then 429 with Retry-After and a JSON message',
    async (route, max, status, body) => {
      const statuses: number[] = [];
      for (let i = 0; i < max + 2; i++) {
        const response = await new Session(limited).request('POST', `/api/auth${route}`, body());
        statuses.push(response.status);
        if (response.status !== 429) {
          await response.body?.cancel();
          continue;
        }
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const answer = (await response.json()) as { message?: unknown };
        expect(answer.message).toEqual(expect.stringMatching(/too many requests/i));
        expect(response.headers.getSetCookie()).toEqual([]);
      }
      expect(statuses).toEqual([...Array<number>(max).fill(status), 429, 429]);
    },
  );
});
