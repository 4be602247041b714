import { Link } from 'react-router';
import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Issue } from '#shared/issues.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { clientLabel } from '#shared/clients.ts';
import { commentsLabel, issueSubject } from '../issue-text.ts';
import { IssueKindBadge, IssueStateBadge } from './issue-badges.tsx';
import { PersonName } from './person-name.tsx';
import { CardList } from '#client/components/card-list.tsx';

export const issuePagePath = (id: string) => `/issues/${encodeURIComponent(id)}`;
const clientPath = (id: string) => `/clients/${encodeURIComponent(id)}`;

const wrap = { overflowWrap: 'anywhere' } as const;
// In a table: a long word still breaks, but a column is never squeezed below its longest word
// ('anywhere' counts every letter as a place to break, and the table then narrows names).
const cellWrap = { overflowWrap: 'break-word' } as const;
// Dates, badges and people's names read on one line; a long name scrolls the table instead.
const nowrap = { whiteSpace: 'nowrap' } as const;

/** Every issue given: a table on a wide screen, one card each on a phone. */
export function IssueList({ issues }: { issues: readonly Issue[] }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  return wide ? <IssueTable issues={issues} /> : <IssueCards issues={issues} />;
}

function Nobody() {
  return (
    <Text span size="sm" c="dimmed">
      Nobody
    </Text>
  );
}

function IssueTable({ issues }: { issues: readonly Issue[] }) {
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Issues">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="30%">Title</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Client</Table.Th>
            <Table.Th>Server / app</Table.Th>
            <Table.Th>Author</Table.Th>
            <Table.Th>Assignee</Table.Th>
            <Table.Th>Opened</Table.Th>
            <Table.Th ta="right">Comments</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {issues.map((issue) => (
            <Table.Tr key={issue.id}>
              {/* A title may be one long word: it breaks anywhere, in a column kept readable. */}
              <Table.Td style={{ ...wrap, minWidth: 220 }}>
                <Stack gap={4} align="flex-start">
                  <Anchor component={Link} to={issuePagePath(issue.id)} fw={600} size="sm">
                    {issue.title}
                  </Anchor>
                  {issue.state === 'resolved' && <IssueStateBadge state="resolved" />}
                </Stack>
              </Table.Td>
              <Table.Td style={nowrap}>
                <IssueKindBadge kind={issue.kind} />
              </Table.Td>
              <Table.Td style={{ ...cellWrap, minWidth: 150 }}>
                <Anchor component={Link} to={clientPath(issue.client.id)} size="sm">
                  {clientLabel(issue.client)}
                </Anchor>
              </Table.Td>
              <Table.Td style={{ ...cellWrap, minWidth: 100 }}>
                {issueSubject(issue) || (
                  <Text span size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={nowrap}>
                <PersonName person={issue.author} />
              </Table.Td>
              <Table.Td style={nowrap}>
                {issue.assignee ? issue.assignee.name : <Nobody />}
              </Table.Td>
              <Table.Td style={nowrap}>{formatDateTime(issue.createdAt)}</Table.Td>
              <Table.Td ta="right">{issue.commentCount}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function IssueCards({ issues }: { issues: readonly Issue[] }) {
  return (
    <CardList label="Issues" items={issues} keyOf={(issue) => issue.id}>
      {(issue) => {
        const subject = issueSubject(issue);
        return (
          <Stack gap={6}>
            <Anchor component={Link} to={issuePagePath(issue.id)} fw={600} style={wrap}>
              {issue.title}
            </Anchor>
            <Group gap={6}>
              <IssueKindBadge kind={issue.kind} />
              {issue.state === 'resolved' && <IssueStateBadge state="resolved" />}
            </Group>
            <Text size="sm" style={wrap}>
              <Anchor component={Link} to={clientPath(issue.client.id)} inherit>
                {clientLabel(issue.client)}
              </Anchor>
              {subject ? ` · ${subject}` : ''}
            </Text>
            <Text size="xs" c="dimmed" style={wrap}>
              {'By '}
              <PersonName person={issue.author} />
              {` · ${formatDateTime(issue.createdAt)} · Assignee: ${issue.assignee?.name ?? 'nobody'} · ${commentsLabel(issue.commentCount)}`}
            </Text>
          </Stack>
        );
      }}
    </CardList>
  );
}
