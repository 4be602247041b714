import { describe, expect, it } from 'vitest';
import { Session, startTestServer } from '../testing/test-server.ts';

// Its own file, so its own process: Better Auth keeps its in-memory counters per process.
describe('rate limits', () => {
  it('limits sign-in attempts per address with 429 and Retry-After, whatever X-Forwarded-For says', async () => {
    const own = await startTestServer();
    try {
      const anon = new Session(own);
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 12; i++) {
        const response = await anon.request(
          'POST',
          '/api/auth/sign-in/email',
          { email: 'nobody@example.test', password: 'wrong password' },
          { 'x-forwarded-for': `10.0.0.${i}` },
        );
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
      }
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });
});
