import { Stack, Text, Title } from '@mantine/core';

/** The sections the original planned but never built. */
export function NotAvailablePage({ name }: { name: string }) {
  return (
    <Stack gap="sm" maw={640}>
      <Title order={1} size="h2">
        {name}
      </Title>
      <Text c="dimmed">{`${name} is not available yet.`}</Text>
    </Stack>
  );
}
