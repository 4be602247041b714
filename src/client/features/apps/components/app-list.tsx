import { Link } from 'react-router';
import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { App } from '#shared/apps.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { RunStateBadge } from './run-state-badge.tsx';
import { clientLabel } from '#shared/clients.ts';
import { CardList } from '#client/components/card-list.tsx';
import { VisibleText } from '#client/components/visible-text.tsx';

export const appPath = (id: string) => `/apps/${encodeURIComponent(id)}`;

const wrap = { overflowWrap: 'anywhere' } as const;

/** Every app given: a table on a wide screen, one card each on a phone. */
export function AppList({ apps }: { apps: readonly App[] }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  return wide ? <AppTable apps={apps} /> : <AppCards apps={apps} />;
}

/** "by Grace, Nov 26, 2026, 2:10 PM", or nothing for an app never deployed. */
function lastDeploy(app: App): string | null {
  const run = app.lastRun;
  return run ? `${formatDateTime(run.startedAt)} by ${run.startedBy.name}` : null;
}

function ServerName({ app }: { app: App }) {
  if (!app.server) {
    return (
      <Text span size="sm" c="var(--mantine-color-error)">
        No server
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={`/servers/${encodeURIComponent(app.server.id)}`} size="sm">
      {app.server.label}
    </Anchor>
  );
}

function Domains({ app }: { app: App }) {
  if (app.domains.length === 0) {
    return (
      <Text span size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {app.domains.map((domain) => (
        <Anchor
          key={domain}
          href={domain}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          style={wrap}
        >
          <VisibleText text={domain} />
        </Anchor>
      ))}
    </Stack>
  );
}

function AppTable({ apps }: { apps: readonly App[] }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Apps">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>App</Table.Th>
            <Table.Th>Client</Table.Th>
            <Table.Th>Server</Table.Th>
            <Table.Th>Last deploy</Table.Th>
            <Table.Th>Domains</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {apps.map((app) => (
            <Table.Tr key={app.id}>
              <Table.Td style={wrap}>
                <Anchor component={Link} to={appPath(app.id)} fw={600} size="sm">
                  {app.name}
                </Anchor>
              </Table.Td>
              <Table.Td style={wrap}>
                <Anchor
                  component={Link}
                  to={`/clients/${encodeURIComponent(app.client.id)}`}
                  size="sm"
                >
                  {clientLabel(app.client)}
                </Anchor>
              </Table.Td>
              <Table.Td style={wrap}>
                <ServerName app={app} />
              </Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <RunStateBadge state={app.lastRun?.state ?? null} />
                  {lastDeploy(app) && (
                    <Text size="xs" c="dimmed" style={wrap}>
                      {lastDeploy(app)}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td style={wrap}>
                <Domains app={app} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function AppCards({ apps }: { apps: readonly App[] }) {
  return (
    <CardList label="Apps" items={apps} keyOf={(app) => app.id}>
      {(app) => (
        <Stack gap={6}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Anchor component={Link} to={appPath(app.id)} fw={600} style={wrap}>
              {app.name}
            </Anchor>
            <RunStateBadge state={app.lastRun?.state ?? null} />
          </Group>
          <Text size="sm" style={wrap}>
            {`${clientLabel(app.client)} · `}
            <ServerName app={app} />
          </Text>
          {lastDeploy(app) && (
            <Text size="xs" c="dimmed" style={wrap}>
              {`Last deploy ${lastDeploy(app)}`}
            </Text>
          )}
          {app.domains.length > 0 && <Domains app={app} />}
        </Stack>
      )}
    </CardList>
  );
}
