import { describe, expect, it } from 'vitest';
import { isEmailAllowed } from './allowlist.ts';

describe('isEmailAllowed', () => {
  const list = { domains: ['example.com'], emails: ['contractor@gmail.com'] };
  it.each([
    ['ada@example.com', true],
    ['ADA@Example.COM', true],
    ['contractor@gmail.com', true],
    ['other@gmail.com', false],
    ['ada@example.com.evil.test', false],
    ['ada@sub.example.com', false],
    ['example.com@evil.test', false],
  ])('%s → %s', (email, allowed) => {
    expect(isEmailAllowed(email, list)).toBe(allowed);
  });

  it('lets everyone in when both lists are empty', () => {
    expect(isEmailAllowed('anyone@anywhere.test', { domains: [], emails: [] })).toBe(true);
  });
});
