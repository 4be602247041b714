import { useId, type ReactNode } from 'react';
import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';

/**
 * The selected client's box: its heading, the client's name and actions beside it, and what is
 * below. Apart from the panel itself, so that the dashboard draws the same box while the
 * panel's code loads.
 */
export function ClientPanelFrame({
  title,
  actions,
  children,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Title order={2} size="xs" c="dimmed" fw={600} id={headingId}>
              Selected Client
            </Title>
            {title}
          </Stack>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** The client's details while they (or the panel's code) load. */
export function ClientLoading() {
  return (
    <Stack gap="sm" role="status" aria-label="Loading client">
      <Skeleton height={28} width="60%" />
      <Skeleton height={16} />
      <Skeleton height={140} />
      <Skeleton height={60} />
    </Stack>
  );
}

export function NoClientSelected() {
  return (
    <Paper withBorder p="xl" radius="md">
      <Stack gap={4} align="center" ta="center" py="lg">
        <Text fw={600}>No client selected</Text>
        <Text size="sm" c="dimmed">
          Pick a client from the list to see its server details and commands.
        </Text>
      </Stack>
    </Paper>
  );
}
