import { Link } from 'react-router';
import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Server } from '#shared/servers.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { useClientServers } from '#client/lib/server-queries.ts';
import { serverAddress } from '#client/lib/server-status.ts';
import { serverPath } from './server-list.tsx';
import { ServerFormModal } from './server-form.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { ServerStatusBadge } from '#client/components/server-status-badge.tsx';

/**
 * A client's servers other than the primary one (shown above as the panel's Server JSON), each
 * with its status and a link to its page, and a way to add one to this client.
 */
export function ClientServers({ client }: { client: Server['client'] }) {
  const servers = useClientServers(client.id);
  const [adding, { open, close }] = useDisclosure(false);
  const mayWrite = useCan('write');

  let body;
  if (servers.isPending) {
    body = <Skeleton height={32} role="status" aria-label="Loading servers" />;
  } else if (servers.isError) {
    body = (
      <ErrorAlert
        title="Could not load the servers"
        error={servers.error}
        onRetry={() => void servers.refetch()}
      />
    );
  } else {
    const others = servers.data.filter((server) => !server.primary);
    body =
      others.length === 0 ? (
        <Text size="sm" c="dimmed">
          No other servers
        </Text>
      ) : (
        <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {others.map((server) => (
            <Group key={server.id} component="li" gap="xs" wrap="wrap" justify="space-between">
              <Stack gap={0} miw={0}>
                <Anchor
                  component={Link}
                  to={serverPath(server.id)}
                  size="sm"
                  fw={600}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {server.label}
                </Anchor>
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {serverAddress(server)}
                </Text>
              </Stack>
              <ServerStatusBadge server={server} />
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
          Add server
        </Button>
      )}
      <ServerFormModal opened={adding} onClose={close} client={client} />
    </Stack>
  );
}
