import type { ReactNode } from 'react';
import { Stack, type MantineSpacing } from '@mantine/core';

const BARE = { listStyle: 'none', margin: 0, padding: 0 } as const;

/**
 * A list drawn as a stack, without bullets or indent: a screen reader still hears a list of so
 * many items. `ordered` when the order means something (comments, the audit trail).
 */
export function BareList({
  label,
  gap,
  ordered = false,
  children,
}: {
  label?: string;
  gap?: MantineSpacing;
  ordered?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack gap={gap} component={ordered ? 'ol' : 'ul'} aria-label={label} style={BARE}>
      {children}
    </Stack>
  );
}
