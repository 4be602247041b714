import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { notifications } from '@mantine/notifications';
import type { Server } from '#shared/servers.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { useAcceptHostKey } from '../api/server-mutations.ts';
import { useCan } from '#client/lib/use-can.ts';

/**
 * A server that offered a different host key than the pinned one: both fingerprints, and the
 * way to trust the new one after confirming it is the key the person was shown.
 */
export function HostKeyAlert({ server }: { server: Server }) {
  const accept = useAcceptHostKey();
  const mayWrite = useCan('write');
  const offered = server.offeredHostKey;

  function confirmAccept() {
    if (!offered) return;
    openConfirmModal({
      title: 'Accept the new host key?',
      children: (
        <Stack gap="xs">
          <Text size="sm">
            Only accept it if you know why the server's key changed (it was reinstalled, or its keys
            were replaced). Checks will then trust this key:
          </Text>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {`${offered.algorithm} ${offered.fingerprint}`}
          </Code>
        </Stack>
      ),
      labels: { confirm: 'Accept new key', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      // The promise, not mutate's callbacks: accepting removes this alert (the server is no
      // longer 'host key changed'), and mutate's callbacks do not run once it has unmounted.
      onConfirm: () =>
        void accept.mutateAsync({ id: server.id, fingerprint: offered.fingerprint }).then(
          () => notifications.show({ color: 'green', message: 'New host key accepted.' }),
          (error: unknown) => notifyFailure('Could not accept the host key', error),
        ),
    });
  }

  return (
    <Alert color="red" title="Host key changed" role="alert">
      <Stack gap="xs">
        <Text size="sm">
          The server offered a different host key than the one pinned at its first check. No check
          signs in to it until the new key is accepted.
        </Text>
        <KeyLine label="Pinned" hostKey={server.hostKey} />
        <KeyLine label="Offered" hostKey={offered} />
        {offered && mayWrite && (
          <Button
            color="red"
            variant="light"
            size="compact-sm"
            style={{ alignSelf: 'flex-start' }}
            loading={accept.isPending}
            onClick={confirmAccept}
          >
            Accept new key
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

function KeyLine({ label, hostKey }: { label: string; hostKey: Server['hostKey'] }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={600} size="sm">
        {`${label}: `}
      </Text>
      {hostKey ? (
        <Text span ff="monospace" size="sm" c="var(--mantine-color-error)">
          {`${hostKey.algorithm} ${hostKey.fingerprint}`}
        </Text>
      ) : (
        'none'
      )}
    </Text>
  );
}
