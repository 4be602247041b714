import type { Run, RunState } from '#shared/apps.ts';

export interface RunLook {
  /** A Mantine colour with its shade: white text on it reaches 4.5:1. */
  color: string;
  label: string;
}

const LOOKS: Record<RunState, RunLook> = {
  running: { color: 'blue.8', label: 'Running' },
  succeeded: { color: 'teal.9', label: 'Succeeded' },
  failed: { color: 'red.9', label: 'Failed' },
  cancelled: { color: 'gray.7', label: 'Cancelled' },
  interrupted: { color: 'grape.8', label: 'Interrupted' },
};

export function runLook(state: RunState): RunLook {
  return LOOKS[state];
}

/** The state filter of the Apps section: the state of each app's last run. */
export const RUN_STATE_FILTERS = [
  { value: '', label: 'All' },
  ...Object.entries(LOOKS).map(([value, look]) => ({ value, label: look.label })),
];

/** "850 ms", "4.2 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) {
    return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  }
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * How a run ended, after its state's badge: "exit code 0 · 4.2 s", "signal TERM · 2.0 s";
 * nothing while it runs.
 */
export function runFacts(run: Pick<Run, 'state' | 'exitCode' | 'signal' | 'durationMs'>): string {
  const parts: string[] = [];
  if (run.exitCode !== null) parts.push(`exit code ${run.exitCode}`);
  else if (run.signal !== null) parts.push(`signal ${run.signal}`);
  if (run.durationMs !== null) parts.push(formatDuration(run.durationMs));
  return parts.join(' · ');
}
