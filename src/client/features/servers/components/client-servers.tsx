import { Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Server } from '#shared/servers.ts';
import { useClientServers } from '#client/lib/server-queries.ts';
import { serverAddress } from '#client/lib/server-status.ts';
import { serverPath } from './server-list.tsx';
import { ServerFormModal } from './server-form.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { ServerStatusBadge } from '#client/components/server-status-badge.tsx';
import { PanelLink, PanelList } from '#client/components/panel-list.tsx';

/**
 * A client's servers other than the primary one (shown above as the panel's Server JSON), each
 * with its status and a link to its page, and a way to add one to this client.
 */
export function ClientServers({ client }: { client: Server['client'] }) {
  const servers = useClientServers(client.id);
  const [adding, { open, close }] = useDisclosure(false);
  const mayWrite = useCan('write');

  return (
    <>
      <PanelList
        items={servers}
        shown={(all) => all.filter((server) => !server.primary)}
        what="servers"
        empty="No other servers"
        add={mayWrite && { label: 'Add server', onClick: open }}
        keyOf={(server) => server.id}
      >
        {(server) => (
          <Group gap="xs" wrap="wrap" justify="space-between">
            <Stack gap={0} miw={0}>
              <PanelLink to={serverPath(server.id)}>{server.label}</PanelLink>
              <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {serverAddress(server)}
              </Text>
            </Stack>
            <ServerStatusBadge server={server} />
          </Group>
        )}
      </PanelList>
      <ServerFormModal opened={adding} onClose={close} client={client} />
    </>
  );
}
