import type { ReactNode } from 'react';
import { Stack, Title, type TitleOrder } from '@mantine/core';

/**
 * A titled part of a record's page (`order` 2, under the page's h1) or of the client panel
 * (4, under the client's name); it looks the same at any level.
 */
export function Section({
  title,
  order = 2,
  children,
}: {
  title: string;
  order?: TitleOrder;
  children: ReactNode;
}) {
  return (
    <Stack gap={6} component="section">
      <Title order={order} size="h6" c="dimmed">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
