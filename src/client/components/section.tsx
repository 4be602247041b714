import type { ReactNode } from 'react';
import { Stack, Title } from '@mantine/core';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6} component="section">
      <Title order={4} size="h6" c="dimmed">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
