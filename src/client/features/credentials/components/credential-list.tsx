import { Link } from 'react-router';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Credential } from '#shared/credentials.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { KIND_LABELS } from '../credential-form-values.ts';
import { clientLabel } from '#shared/clients.ts';
import { CardList } from '#client/components/card-list.tsx';

export const credentialPath = (id: string) => `/credentials/${encodeURIComponent(id)}`;

const wrap = { overflowWrap: 'anywhere' } as const;

function usedBy(credential: Credential): string {
  if (credential.servers.length === 0) return 'No server';
  return credential.servers
    .map((server) => `${server.label} of ${clientLabel(server.client)}`)
    .join(', ');
}

function lastRevealed(credential: Credential): string {
  if (!credential.revealedAt) return 'Never';
  const when = formatDateTime(credential.revealedAt);
  return credential.revealedBy ? `${when} by ${credential.revealedBy}` : when;
}

export function KindBadge({ kind }: { kind: Credential['kind'] }) {
  return (
    <Badge
      variant="light"
      color="gray"
      style={{ flexShrink: 0 }}
      styles={{ root: { textTransform: 'none', maxWidth: 'none' }, label: { overflow: 'visible' } }}
    >
      {KIND_LABELS[kind]}
    </Badge>
  );
}

/** The vault: a table on a wide screen, one card each on a phone. Never a secret. */
export function CredentialList({ credentials }: { credentials: readonly Credential[] }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  if (!wide) {
    return (
      <CardList label="Credentials" items={credentials} keyOf={(credential) => credential.id}>
        {(credential) => (
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
              <Anchor component={Link} to={credentialPath(credential.id)} fw={600} style={wrap}>
                {credential.name}
              </Anchor>
              <KindBadge kind={credential.kind} />
            </Group>
            <Text size="sm" style={wrap}>{`Used by: ${usedBy(credential)}`}</Text>
            <Text size="xs" c="dimmed">
              {`Created ${formatDateTime(credential.createdAt)} · Last revealed: ${lastRevealed(credential)}`}
            </Text>
          </Stack>
        )}
      </CardList>
    );
  }
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Credentials">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Used by</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Last revealed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {credentials.map((credential) => (
            <Table.Tr key={credential.id}>
              <Table.Td style={wrap}>
                <Anchor component={Link} to={credentialPath(credential.id)} fw={600} size="sm">
                  {credential.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <KindBadge kind={credential.kind} />
              </Table.Td>
              <Table.Td style={wrap}>
                {credential.servers.length === 0 ? (
                  <Text span size="sm" c="dimmed">
                    No server
                  </Text>
                ) : (
                  <Stack gap={2}>
                    {credential.servers.map((server) => (
                      <Anchor
                        key={server.id}
                        component={Link}
                        to={`/servers/${encodeURIComponent(server.id)}`}
                        size="sm"
                      >
                        {`${server.label} of ${clientLabel(server.client)}`}
                      </Anchor>
                    ))}
                  </Stack>
                )}
              </Table.Td>
              <Table.Td>{formatDateTime(credential.createdAt)}</Table.Td>
              <Table.Td style={wrap}>{lastRevealed(credential)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
