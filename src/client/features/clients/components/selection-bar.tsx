import type { ReactNode } from 'react';
import { Button, Group, Text } from '@mantine/core';
import classes from './selection-bar.module.css';

/**
 * Above the list while rows are selected: how many, and what can be done with them. The bulk
 * actions go in as `children`; `selectedIds` is what they act on.
 */
export function SelectionBar({
  selectedIds,
  hiddenCount,
  onClear,
  children,
}: {
  selectedIds: readonly string[];
  /** Selected clients the search does not show now. */
  hiddenCount: number;
  onClear: () => void;
  children?: ReactNode;
}) {
  return (
    <Group
      role="toolbar"
      aria-label="Selected clients"
      gap="xs"
      wrap="wrap"
      className={classes.bar}
    >
      <Text size="sm" fw={600} role="status" className={classes.count}>
        {`${selectedIds.length} selected`}
        {hiddenCount > 0 && (
          <Text span size="xs" c="dimmed" fw={400}>
            {` (${hiddenCount} not shown by the search)`}
          </Text>
        )}
      </Text>
      {children}
      <Button size="compact-sm" variant="subtle" onClick={onClear}>
        Clear selection
      </Button>
    </Group>
  );
}
