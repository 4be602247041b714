import type { ReactNode } from 'react';
import { Card, Stack, type MantineSpacing } from '@mantine/core';

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
    <Stack
      gap={gap}
      component="ul"
      aria-label={label}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {items.map((item) => (
        <Card key={keyOf(item)} withBorder radius="md" padding="sm" component="li">
          {children(item)}
        </Card>
      ))}
    </Stack>
  );
}
