import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { UserSession } from '#shared/account.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { sessionsQuery, useRevokeOtherSessions } from './api/sessions.ts';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A readable device name from a user agent: enough to tell a laptop from a phone. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

function SessionRow({ session }: { session: UserSession }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs">
          <Text size="sm">{describeDevice(session.userAgent)}</Text>
          {session.current && (
            <Badge size="sm" variant="light">
              This device
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{session.ipAddress ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{when.format(new Date(session.createdAt))}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{when.format(new Date(session.lastSeenAt))}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function SessionsSection() {
  const sessions = useQuery(sessionsQuery());
  const revoke = useRevokeOtherSessions();
  const others = (sessions.data?.sessions ?? []).filter((s) => !s.current).length;

  async function signOutOthers() {
    try {
      await revoke.mutateAsync();
      notifications.show({ color: 'green', message: 'Signed out of all other devices.' });
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="sessions-title">
          Signed-in devices
        </Title>
        <Text size="sm" c="dimmed">
          Everywhere your account is signed in now. If you see a device you do not know, sign it out
          and change your password.
        </Text>
        {sessions.isPending && <Skeleton height={80} />}
        {sessions.isError && <Alert color="red">{errorMessage(sessions.error)}</Alert>}
        {sessions.data && (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Device</Table.Th>
                  <Table.Th>IP address</Table.Th>
                  <Table.Th>Signed in</Table.Th>
                  <Table.Th>Last active</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.data.sessions.map((session) => (
                  <SessionRow key={session.id} session={session} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group>
          <Button
            variant="light"
            color="red"
            disabled={others === 0}
            loading={revoke.isPending}
            onClick={() => void signOutOthers()}
          >
            Sign out all other devices
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
