import { describe, expect, it } from 'vitest';
import { RUN_STATES } from '#shared/apps.ts';
import { formatDuration, runFacts, runLook, RUN_STATE_FILTERS } from './run-look.ts';

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

describe('runFacts', () => {
  it('says what follows the badge, nothing while it runs', () => {
    expect(runFacts({ state: 'failed', exitCode: 3, signal: null, durationMs: 120 })).toBe(
      'exit code 3 · 120 ms',
    );
    expect(runFacts({ state: 'running', exitCode: null, signal: null, durationMs: null })).toBe('');
    expect(runFacts({ state: 'interrupted', exitCode: null, signal: null, durationMs: 900 })).toBe(
      '900 ms',
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
