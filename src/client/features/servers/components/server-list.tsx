import { Link } from 'react-router';
import { Anchor, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Server } from '#shared/servers.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { serverAddress } from '#client/lib/server-status.ts';
import { ServerStatusBadge } from '#client/components/server-status-badge.tsx';
import { clientLabel } from '#shared/clients.ts';
import { CardList } from '#client/components/card-list.tsx';

export const serverPath = (id: string) => `/servers/${encodeURIComponent(id)}`;

const wrap = { overflowWrap: 'anywhere' } as const;

/** Every server given: a table on a wide screen, one card each on a phone. */
export function ServerList({ servers }: { servers: readonly Server[] }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  return wide ? <ServerTable servers={servers} /> : <ServerCards servers={servers} />;
}

function lastCheck(server: Server): string {
  return server.checkedAt ? formatDateTime(server.checkedAt) : 'Never';
}

function ServerTable({ servers }: { servers: readonly Server[] }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Servers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Label</Table.Th>
            <Table.Th>Client</Table.Th>
            <Table.Th>Address</Table.Th>
            <Table.Th>Credential</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Last check</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {servers.map((server) => (
            <Table.Tr key={server.id}>
              <Table.Td style={wrap}>
                <Anchor component={Link} to={serverPath(server.id)} fw={600} size="sm">
                  {server.label}
                </Anchor>
                {server.primary && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    (primary)
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={wrap}>{clientLabel(server.client)}</Table.Td>
              <Table.Td style={wrap}>
                <Text size="sm" ff="monospace">
                  {serverAddress(server)}
                </Text>
              </Table.Td>
              <Table.Td style={wrap}>
                {server.credential?.name ?? (
                  <Text span size="sm" c="dimmed">
                    None
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <ServerStatusBadge server={server} withReason />
              </Table.Td>
              <Table.Td>{lastCheck(server)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ServerCards({ servers }: { servers: readonly Server[] }) {
  return (
    <CardList label="Servers" items={servers} keyOf={(server) => server.id}>
      {(server) => (
        <Stack gap={4}>
          <Anchor component={Link} to={serverPath(server.id)} fw={600} style={wrap}>
            {server.label}
            {server.primary ? ' (primary)' : ''}
          </Anchor>
          <ServerStatusBadge server={server} />
          <Text size="sm" style={wrap}>
            {clientLabel(server.client)}
          </Text>
          <Text size="sm" ff="monospace" style={wrap}>
            {serverAddress(server)}
          </Text>
          {server.status === 'unreachable' && server.reason && (
            <Text size="xs" c="var(--mantine-color-error)">
              {server.reason}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {`Credential: ${server.credential?.name ?? 'None'} · Last check: ${lastCheck(server)}`}
          </Text>
        </Stack>
      )}
    </CardList>
  );
}
