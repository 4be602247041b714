import { NativeSelect } from '@mantine/core';
import { parseSort, sortParam, type ClientSort } from '../client-sort.ts';

/** Each order in both directions, named as people say them; '' is the default order. */
const OPTIONS = [
  { value: '', label: 'Date added' },
  { value: 'name', label: 'Name, A to Z' },
  { value: '-name', label: 'Name, Z to A' },
  { value: 'code', label: 'Code, A to Z' },
  { value: '-code', label: 'Code, Z to A' },
  { value: '-start', label: 'Start date, newest first' },
  { value: 'start', label: 'Start date, oldest first' },
  { value: '-changed', label: 'Last change, newest first' },
  { value: 'changed', label: 'Last change, oldest first' },
];

/** The list's order. A native select: one keyboard-friendly control, read as such everywhere. */
export function SortSelect({
  sort,
  onChange,
}: {
  sort: ClientSort | null;
  onChange: (next: ClientSort | null) => void;
}) {
  return (
    <NativeSelect
      size="xs"
      label="Sort by"
      data={OPTIONS}
      value={sortParam(sort) ?? ''}
      onChange={(event) => onChange(parseSort(event.currentTarget.value || null))}
    />
  );
}
