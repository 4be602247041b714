import { Link } from 'react-router';
import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { App } from '#shared/apps.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { useCan } from '#client/lib/use-can.ts';
import { appsQuery } from '../api/app-queries.ts';
import { appPath } from './app-list.tsx';
import { AppFormModal } from './app-form.tsx';
import { RunStateBadge } from './run-state-badge.tsx';

/** A client's apps in its panel, each with its last deploy and a link, and a way to add one. */
export function ClientApps({ client }: { client: App['client'] }) {
  const apps = useQuery(appsQuery({ clientId: client.id }));
  const [adding, { open, close }] = useDisclosure(false);
  const mayWrite = useCan('write');

  let body;
  if (apps.isPending) {
    body = <Skeleton height={32} role="status" aria-label="Loading apps" />;
  } else if (apps.isError) {
    body = (
      <ErrorAlert
        title="Could not load the apps"
        error={apps.error}
        onRetry={() => void apps.refetch()}
      />
    );
  } else if (apps.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        No apps
      </Text>
    );
  } else {
    body = (
      <Stack
        gap={6}
        component="ul"
        aria-label={`Apps of ${client.name || client.code}`}
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {apps.data.map((app) => (
          <Group
            key={app.id}
            component="li"
            gap="xs"
            wrap="nowrap"
            justify="space-between"
            align="flex-start"
          >
            <Stack gap={0} miw={0}>
              <Anchor
                component={Link}
                to={appPath(app.id)}
                size="sm"
                fw={600}
                style={{ overflowWrap: 'anywhere' }}
              >
                {app.name}
              </Anchor>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {[
                  app.server?.label ?? 'no server',
                  app.lastRun
                    ? `${formatDateTime(app.lastRun.startedAt)} by ${app.lastRun.startedBy.name}`
                    : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Stack>
            <RunStateBadge state={app.lastRun?.state ?? null} />
          </Group>
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="xs">
      {body}
      {mayWrite && (
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<PlusIcon size={14} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={open}
        >
          Add app
        </Button>
      )}
      <AppFormModal opened={adding} onClose={close} client={client} />
    </Stack>
  );
}
