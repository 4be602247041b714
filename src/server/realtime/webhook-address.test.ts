import { describe, expect, it } from 'vitest';
import { isPrivateAddress, resolveAllowed } from './webhook-address.ts';
import { retryDelay } from './webhook-outbox.ts';

describe('the webhook address guard', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'FE80::abcd',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a00:1',
    '192.0.0.192',
    '198.18.0.1',
    '198.19.255.254',
    'fec0::1',
    '100::1',
    '2002:a00:1::',
    '2002:7f00:1::1',
    '64:ff9b:1::a00:1',
    '::10.0.0.1',
    '::a00:1',
    '::ffff:0:10.0.0.1',
    '0:0:0:0:0:ffff:7f00:1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '203.0.113.10',
    '2001:db8::1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::1',
    '64:ff9b::808:808',
    '198.20.0.1',
    '192.0.1.1',
  ])('lets %s through', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('checks every address a name resolves to, and names the refused one', async () => {
    await expect(resolveAllowed('localhost', false)).rejects.toThrow(
      /^localhost resolves to a private address \((127\.0\.0\.1|::1)\)/,
    );
    await expect(resolveAllowed('127.0.0.1', true)).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(resolveAllowed('203.0.113.10', false)).resolves.toEqual([
      { address: '203.0.113.10', family: 4 },
    ]);
  });
});

describe('the retry delays', () => {
  it('double from 10 s up to an hour', () => {
    const timings = {
      retryDelayMs: 10_000,
      maxRetryDelayMs: 3_600_000,
      retryWindowMs: 86_400_000,
      timeoutMs: 10_000,
      pollMs: 5_000,
    };
    expect([1, 2, 3, 4, 9, 10, 20].map((n) => retryDelay(n, timings))).toEqual([
      10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000,
    ]);
    // Within 24 hours of the first attempt: 9 doubling waits (about 85 minutes in all), then
    // one an hour: 32 attempts before it is failed.
    let at = 0;
    let attempts = 0;
    while (at + retryDelay(attempts + 1, timings) <= timings.retryWindowMs) {
      attempts += 1;
      at += retryDelay(attempts, timings);
    }
    expect(attempts + 1).toBe(32);
  });
});
