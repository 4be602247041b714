import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session, startTestServer, type TestServer } from '#server/testing/test-server.ts';

// Behind a reverse proxy every request comes from the proxy's address: without TRUST_PROXY all
// staff would share one rate-limit count, and one person's typos would lock everyone out. With
// it, X-Forwarded-For names the client, but only when the proxy itself sent it.
let behindProxy: TestServer;
let otherProxy: TestServer;
beforeAll(async () => {
  [behindProxy, otherProxy] = await Promise.all([
    startTestServer({ TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '2' }),
    startTestServer({ TRUST_PROXY: '10.9.9.9/32', AUTH_RATE_LIMIT_PER_MINUTE: '2' }),
  ]);
});
afterAll(async () => Promise.all([behindProxy.close(), otherProxy.close()]));

async function attempts(server: TestServer, ...forwardedFor: string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const address of forwardedFor) {
    const response = await new Session(server).request(
      'POST',
      '/api/auth/sign-in/email',
      { email: 'nobody@example.test', password: 'wrong password' },
      { 'x-forwarded-for': address },
    );
    statuses.push(response.status);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  it('counts sign-in attempts per client that the trusted proxy names', async () => {
    expect(await attempts(behindProxy, '203.0.113.7', '203.0.113.7', '203.0.113.7')).toEqual([
      401, 401, 429,
    ]);
    // Another person behind the same proxy is not locked out by the first one's attempts.
    expect(await attempts(behindProxy, '203.0.113.8')).toEqual([401]);
    // The client is the address the proxy appended last, not what a client claimed before it.
    expect(await attempts(behindProxy, '198.51.100.1, 203.0.113.7')).toEqual([429]);
    const keys = await behindProxy.app.parts.db.kysely
      .selectFrom('rateLimit')
      .select('key')
      .execute();
    expect(keys.filter((r) => r.key.includes('/sign-in/email'))).toHaveLength(2);
  });

  it('ignores X-Forwarded-For from an address that is not a named proxy', async () => {
    expect(await attempts(otherProxy, '203.0.113.1', '203.0.113.2', '203.0.113.3')).toEqual([
      401, 401, 429,
    ]);
  });
});
