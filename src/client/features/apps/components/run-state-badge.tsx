import { Badge } from '@mantine/core';
import type { RunState } from '#shared/apps.ts';
import { runLook } from '../run-look.ts';

/** A run's state as a coloured badge; `null` for an app that was never deployed. */
export function RunStateBadge({
  state,
  fullWidth = false,
}: {
  state: RunState | null;
  fullWidth?: boolean;
}) {
  const look = state === null ? { color: 'gray.7', label: 'Never deployed' } : runLook(state);
  return (
    <Badge
      color={look.color}
      variant="filled"
      fullWidth={fullWidth}
      styles={{ root: { textTransform: 'none', flexShrink: 0 } }}
    >
      {look.label}
    </Badge>
  );
}
