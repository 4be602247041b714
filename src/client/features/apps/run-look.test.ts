import { describe, expect, it } from 'vitest';
import { RUN_STATES } from '#shared/apps.ts';
import { formatDuration, runLook, runOutcome, RUN_STATE_FILTERS } from './run-look.ts';

describe('formatDuration', () => {
  it('says milliseconds, seconds, minutes and hours as a person reads them', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4249)).toBe('4.2 s');
    expect(formatDuration(59_999)).toBe('59.9 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
  });

  it('shows a dash for a figure that cannot be a duration', () => {
    expect(formatDuration(-1)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
  });
});

describe('runOutcome', () => {
  it('names the state, the exit code or signal, and how long it took', () => {
    expect(runOutcome({ state: 'succeeded', exitCode: 0, signal: null, durationMs: 4200 })).toBe(
      'Succeeded · exit code 0 · 4.2 s',
    );
    expect(runOutcome({ state: 'failed', exitCode: 3, signal: null, durationMs: 120 })).toBe(
      'Failed · exit code 3 · 120 ms',
    );
    expect(
      runOutcome({ state: 'cancelled', exitCode: null, signal: 'TERM', durationMs: 2000 }),
    ).toBe('Cancelled · signal TERM · 2.0 s');
    expect(runOutcome({ state: 'running', exitCode: null, signal: null, durationMs: null })).toBe(
      'Running',
    );
  });
});

describe('runLook', () => {
  it('has a label and a filter for every state', () => {
    for (const state of RUN_STATES) {
      expect(runLook(state).label).not.toBe('');
      expect(RUN_STATE_FILTERS.map((filter) => filter.value)).toContain(state);
    }
  });
});
