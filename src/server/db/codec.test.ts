import { describe, expect, it } from 'vitest';
import { toIso } from './codec.ts';

describe('toIso', () => {
  it('keeps a timestamp already in toISOString form as it is', () => {
    expect(toIso('2026-11-24T03:04:05.678Z')).toBe('2026-11-24T03:04:05.678Z');
  });

  it('normalises every other form to it', () => {
    expect(toIso(new Date(Date.UTC(2026, 10, 24, 3, 4, 5, 678)))).toBe('2026-11-24T03:04:05.678Z');
    expect(toIso('2026-11-24T03:04:05Z')).toBe('2026-11-24T03:04:05.000Z');
    expect(toIso('2026-11-24T04:04:05.678+01:00')).toBe('2026-11-24T03:04:05.678Z');
  });
});
