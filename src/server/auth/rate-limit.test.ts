import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Session, startTestServer, type TestServer } from '../testing/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());
afterEach(() => {
  vi.useRealTimers();
});

const attempt = (headers: Record<string, string> = {}) =>
  new Session(server).request(
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
    const rows = await server.app.parts.db.kysely.selectFrom('rateLimit').select('key').execute();
    expect(rows.some((r) => r.key.includes('/sign-in/email'))).toBe(true);

    vi.setSystemTime(Date.now() + (Number(retryAfter) + 1) * 1000);
    expect((await attempt()).status).toBe(401);
  });
});
