import { Link } from 'react-router';
import { Anchor, Code, Group, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { ClientCommand } from '#shared/clients.ts';
import { copyText } from '#client/lib/clipboard.ts';
import { commandsQuery } from '#client/lib/commands-query.ts';
import { ErrorAlert } from './error-alert.tsx';
import { CopyIcon } from './icons.tsx';
import classes from './command-list.module.css';

/** The client's commands for `serverId`, or for its primary server without it. */
export function CommandList({
  clientId,
  serverId,
  only,
}: {
  clientId: string;
  serverId?: string | undefined;
  /** Just this command (a server's page shows its SSH command). */
  only?: ClientCommand['id'];
}) {
  const commands = useQuery(commandsQuery(clientId, serverId));

  if (commands.isPending) {
    return (
      <Stack gap="xs" role="status" aria-label="Loading commands">
        <Skeleton height={40} />
        <Skeleton height={40} />
      </Stack>
    );
  }
  if (commands.isError) {
    return (
      <ErrorAlert
        title="Could not load the commands"
        error={commands.error}
        onRetry={() => void commands.refetch()}
      />
    );
  }
  return (
    <Stack gap="sm">
      {commands.data
        .filter((command) => only === undefined || command.id === only)
        .map((command) => (
          <CommandItem key={command.id} command={command} />
        ))}
    </Stack>
  );
}

function CommandItem({ command }: { command: ClientCommand }) {
  async function copy(text: string) {
    // A failed copy is only logged (by copyText): the command is on screen to copy by hand.
    if (await copyText(text)) {
      notifications.show({ color: 'green', message: 'Command Copied to clipboard!' });
    }
  }

  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {command.label}
      </Text>
      {command.command !== null ? (
        <UnstyledButton
          className={classes.command}
          // The name holds the words on the button, so speaking what one sees finds it.
          aria-label={`Copy ${command.label} command: ${command.display ?? command.command}`}
          onClick={() => void copy(command.command ?? '')}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <Code className={classes.code}>{command.display ?? command.command}</Code>
            <CopyIcon size={16} className={classes.icon} />
          </Group>
        </UnstyledButton>
      ) : (
        <Text size="sm" c="dimmed">
          {command.missing}
          {command.missing?.includes('Settings') && (
            <>
              {' '}
              <Anchor component={Link} to="/settings" size="sm">
                Open Settings
              </Anchor>
            </>
          )}
        </Text>
      )}
    </Stack>
  );
}
