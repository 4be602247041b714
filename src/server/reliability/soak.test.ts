import { describe, expect, it } from 'vitest';
import { testDialect } from '../testing/test-database.ts';
import { runSoak } from './soak.ts';

// A few seconds of `npm run soak` at a small scale, so the script keeps working; the full
// minute (50 writers, 200 subscribers) is run by hand. It starts its own server on SQLite, so
// it runs once, in the sqlite project.
describe.runIf(testDialect() === 'sqlite')('npm run soak', () => {
  it('holds a short load: no 5xx, every event at every subscriber in order', async () => {
    const result = await runSoak({
      seconds: 3,
      warmup: 1,
      writers: 8,
      subscribers: 20,
      postgres: false,
    });
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.requests).toBeGreaterThan(20);
    // Every acknowledged write is one event, and every subscriber got all of them.
    expect(result.events).toBe(result.requests);
    expect(result.receivedMin).toBe(result.events);
    expect(result.rssEndKb).toBeGreaterThan(10_000);
    // The probe answered: a live heap of a few tens of MB.
    expect(result.liveEndKb).toBeGreaterThan(5_000);
    expect(result.liveEndKb).toBeLessThan(result.rssEndKb);
  }, 30_000);
});
