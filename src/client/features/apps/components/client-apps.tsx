import { Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { App } from '#shared/apps.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { useCan } from '#client/lib/use-can.ts';
import { appsQuery } from '../api/app-queries.ts';
import { appPath } from './app-list.tsx';
import { AppFormModal } from './app-form.tsx';
import { RunStateBadge } from './run-state-badge.tsx';
import { PanelLink, PanelList } from '#client/components/panel-list.tsx';

/** A client's apps in its panel, each with its last deploy and a link, and a way to add one. */
export function ClientApps({ client }: { client: App['client'] }) {
  const apps = useQuery(appsQuery({ clientId: client.id }));
  const [adding, { open, close }] = useDisclosure(false);
  const mayWrite = useCan('write');

  return (
    <>
      <PanelList
        items={apps}
        what="apps"
        empty="No apps"
        add={mayWrite && { label: 'Add app', onClick: open }}
        label={`Apps of ${client.name || client.code}`}
        keyOf={(app) => app.id}
      >
        {(app) => (
          <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
            <Stack gap={0} miw={0}>
              <PanelLink to={appPath(app.id)}>{app.name}</PanelLink>
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
        )}
      </PanelList>
      <AppFormModal opened={adding} onClose={close} client={client} />
    </>
  );
}
