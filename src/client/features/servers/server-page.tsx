import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Server } from '#shared/servers.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { RecordField, RecordHeading, RecordPage } from '#client/components/record-page.tsx';
import { EditIcon, TrashIcon } from '#client/components/icons.tsx';
import { CommandList } from '#client/components/command-list.tsx';
import { Section } from '#client/components/section.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { serverQuery } from '#client/lib/server-queries.ts';
import { clientAppsQuery } from '#client/lib/app-list-query.ts';
import { useCheckServer, useDeleteServer, useMakePrimary } from './api/server-mutations.ts';
import { HostKeyAlert } from './components/host-key-alert.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { ServerFormModal } from './components/server-form.tsx';
import { ServerHistory } from './components/server-history.tsx';
import { ServerStatusBadge } from '#client/components/server-status-badge.tsx';
import { statusLook } from '#client/lib/server-status.ts';
import { clientLabel } from '#shared/clients.ts';

const SERVERS = { to: '/servers', name: 'servers' };

export function ServerPage() {
  const { serverId = '' } = useParams();
  return (
    <RecordPage
      record={useQuery(serverQuery(serverId))}
      noun="server"
      gone="removed"
      list={SERVERS}
      blocks={[160, 80]}
    >
      {(server) => <ServerDetails server={server} />}
    </RecordPage>
  );
}

function ServerDetails({ server }: { server: Server }) {
  const [editing, { open: openEdit, close: closeEdit }] = useDisclosure(false);
  const mayWrite = useCan('write');
  return (
    <Stack gap="lg" maw={960}>
      <RecordHeading
        list={SERVERS}
        title={server.label}
        badges={
          server.primary && (
            <Badge variant="light" style={{ textTransform: 'none' }}>
              Primary
            </Badge>
          )
        }
        of={{ what: 'Server', client: server.client }}
      />

      {mayWrite && <ServerActions server={server} onEdit={openEdit} />}

      {server.status === 'host_key_changed' && <HostKeyAlert server={server} />}

      <Paper withBorder radius="md" p="lg">
        <Stack gap="lg">
          <Section title="Status">
            <ServerStatusBadge server={server} />
            {statusLook(server).detail && (
              <Text size="sm" c="var(--mantine-color-error)">
                {`Reason: ${server.reason}`}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {server.checkedAt
                ? `Last check: ${formatDateTime(server.checkedAt)}`
                : 'Not checked yet.'}
            </Text>
          </Section>

          <Section title="Details">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
              <RecordField label="Host" mono>
                {server.host || '—'}
              </RecordField>
              <RecordField label="Port" mono>
                {String(server.port)}
              </RecordField>
              <RecordField label="Username" mono>
                {server.username || '—'}
              </RecordField>
              <RecordField label="uiDir" mono>
                {server.uiDir || '—'}
              </RecordField>
              <RecordField label="Private">{server.private ? 'Yes' : 'No'}</RecordField>
              <RecordField label="Credential">
                {server.credential ? (
                  <Anchor
                    component={Link}
                    to={`/credentials/${encodeURIComponent(server.credential.id)}`}
                    size="sm"
                  >
                    {server.credential.name}
                  </Anchor>
                ) : (
                  'None'
                )}
              </RecordField>
              <RecordField label="Pinned host key" mono>
                {server.hostKey
                  ? `${server.hostKey.algorithm} ${server.hostKey.fingerprint}`
                  : 'Not pinned yet: the first check pins it.'}
              </RecordField>
            </SimpleGrid>
          </Section>

          <Section title="SSH command">
            <CommandList clientId={server.client.id} serverId={server.id} only="ssh" />
          </Section>

          <Section title="History">
            <ServerHistory serverId={server.id} />
          </Section>
        </Stack>
      </Paper>
      <ServerFormModal opened={editing} onClose={closeEdit} server={server} />
    </Stack>
  );
}

function ServerActions({ server, onEdit }: { server: Server; onEdit: () => void }) {
  const navigate = useNavigate();
  const check = useCheckServer();
  const makePrimary = useMakePrimary();
  const remove = useDeleteServer();
  // The apps this server runs lose it on removal: said in the confirmation, not found after.
  const apps = useQuery(clientAppsQuery(server.client.id));
  const appsOnIt = (apps.data ?? []).filter((app) => app.server?.id === server.id);

  function runCheck() {
    check.mutate(server.id, {
      onSuccess: (checked) => {
        const look = statusLook(checked);
        notifications.show({
          color: look.color === 'gray' ? 'blue' : look.color,
          title: `Check of ${checked.label}`,
          message: look.detail ? `${look.label}: ${look.detail}` : look.label,
        });
      },
      onError: (error) => notifyFailure('Could not check the server', error),
    });
  }

  function confirmRemove() {
    openConfirmModal({
      title: 'Remove server',
      children: (
        <Stack gap="xs">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {`Remove the server ${server.label} of ${clientLabel(server.client)}? Its credential stays in the vault.`}
          </Text>
          {appsOnIt.length > 0 && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {appsOnIt.length === 1
                ? `The app ${appsOnIt[0]!.name} runs on it: it keeps its runs, and cannot deploy until it is given another server.`
                : `The apps ${appsOnIt.map((app) => app.name).join(', ')} run on it: they keep their runs, and cannot deploy until they are given another server.`}
            </Text>
          )}
        </Stack>
      ),
      labels: { confirm: 'Remove', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      // Awaited rather than per-call callbacks: the live feed's echo of the delete can make this
      // page "not found" (and unmount these buttons) before the answer, and the move must happen.
      onConfirm: () =>
        void remove.mutateAsync(server).then(
          () => {
            notifications.show({ color: 'green', message: 'Server removed.' });
            void navigate('/servers');
          },
          (error: unknown) => notifyFailure('Could not remove the server', error),
        ),
    });
  }

  return (
    <Stack gap={6}>
      <Group gap="sm">
        <Button loading={check.isPending} onClick={runCheck}>
          Check now
        </Button>
        <Button variant="default" leftSection={<EditIcon size={16} />} onClick={onEdit}>
          Edit
        </Button>
        {!server.primary && (
          <Button
            variant="default"
            loading={makePrimary.isPending}
            onClick={() =>
              makePrimary.mutate(server.id, {
                onSuccess: () =>
                  notifications.show({
                    color: 'green',
                    message: 'This is now the primary server.',
                  }),
                onError: (error) => notifyFailure('Could not make it the primary server', error),
              })
            }
          >
            Make primary
          </Button>
        )}
        <Button
          variant="default"
          color="red"
          leftSection={<TrashIcon size={16} />}
          loading={remove.isPending}
          onClick={confirmRemove}
        >
          Remove
        </Button>
      </Group>
      {check.isPending && (
        <Text size="sm" c="dimmed" role="status">
          Checking… a server that does not answer takes up to 40 seconds.
        </Text>
      )}
    </Stack>
  );
}
