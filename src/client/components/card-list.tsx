import type { ReactNode } from 'react';
import { Card, type MantineSpacing } from '@mantine/core';
import { BareList } from './bare-list.tsx';

/**
 * A list drawn as cards, one bordered card an item (a section's list on a phone, the people,
 * the pending invitations, a webhook's deliveries): a list to assistive technology, named by
 * `label`.
 */
export function CardList<T>({
  label,
  items,
  keyOf,
  gap = 'sm',
  children,
}: {
  label: string;
  items: readonly T[];
  keyOf: (item: T) => string;
  gap?: MantineSpacing;
  children: (item: T) => ReactNode;
}) {
  return (
    <BareList gap={gap} label={label}>
      {items.map((item) => (
        <Card key={keyOf(item)} withBorder radius="md" padding="sm" component="li">
          {children(item)}
        </Card>
      ))}
    </BareList>
  );
}
