import { SegmentedControl } from '@mantine/core';
import type { ListView } from '#shared/account.ts';

/** The list or the compact table; a radio group named "View". */
export function ViewControl({
  view,
  onChange,
}: {
  view: ListView;
  onChange: (next: ListView) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="View"
      value={view}
      onChange={(value) => onChange(value === 'table' ? 'table' : 'list')}
      data={[
        { value: 'list', label: 'List' },
        { value: 'table', label: 'Table' },
      ]}
    />
  );
}
