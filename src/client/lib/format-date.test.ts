import { describe, expect, it } from 'vitest';
import { formatDate, todayIsoDate } from './format-date.ts';

describe('formatDate', () => {
  it('formats a calendar date in the medium US style', () => {
    expect(formatDate('2026-11-21')).toBe('Nov 21, 2026');
    expect(formatDate('2024-01-01')).toBe('Jan 1, 2024');
  });

  it('keeps the calendar day whatever the time zone', () => {
    // The first and last day of a year are where a UTC shift would show.
    expect(formatDate('2025-12-31')).toBe('Dec 31, 2025');
    expect(formatDate('2026-01-01')).toBe('Jan 1, 2026');
  });

  it('keeps years before 100 as they are', () => {
    // `new Date(50, …)` would mean 1950.
    expect(formatDate('0050-06-15')).toBe('Jun 15, 50');
    expect(formatDate('0001-01-01')).toBe('Jan 1, 1');
  });

  it('reads the date part of a full timestamp', () => {
    expect(formatDate('2026-03-05T23:30:00.000Z')).toBe('Mar 5, 2026');
  });

  it('returns text that is not a valid date unchanged', () => {
    expect(formatDate('')).toBe('');
    expect(formatDate('soon')).toBe('soon');
    expect(formatDate('2026-02-30')).toBe('2026-02-30');
  });
});

describe('todayIsoDate', () => {
  it('pads month and day', () => {
    expect(todayIsoDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
