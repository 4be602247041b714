import { Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { Issue } from '#shared/issues.ts';
import { formatDateTime } from '#client/lib/history-text.ts';
import { useCan } from '#client/lib/use-can.ts';
import { issuesQuery } from '../api/issue-queries.ts';
import { issueSubject } from '../issue-text.ts';
import { IssueFormModal } from './issue-form.tsx';
import { IssueKindBadge } from './issue-badges.tsx';
import { issuePagePath } from './issue-list.tsx';
import { PersonName } from './person-name.tsx';
import { PanelLink, PanelList } from '#client/components/panel-list.tsx';

/** A client's open issues in its panel, each linking to its page, and a way to open one. */
export function OpenIssues({ client }: { client: Issue['client'] }) {
  const issues = useQuery(issuesQuery({ clientId: client.id, state: 'open' }));
  const [adding, { open, close }] = useDisclosure(false);
  const mayWrite = useCan('write');

  return (
    <>
      <PanelList
        items={issues}
        what="issues"
        loadingLabel="Loading open issues"
        empty="No open issues"
        add={mayWrite && { label: 'New issue', onClick: open }}
        label="Open issues"
        keyOf={(issue) => issue.id}
        gap={8}
      >
        {(issue) => {
          const subject = issueSubject(issue);
          return (
            <Stack gap={2}>
              <PanelLink to={issuePagePath(issue.id)}>{issue.title}</PanelLink>
              <Group gap={6} wrap="nowrap" align="flex-start">
                <IssueKindBadge kind={issue.kind} />
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {subject ? `${subject} · ` : ''}
                  {'by '}
                  <PersonName person={issue.author} />
                  {` · ${formatDateTime(issue.createdAt)}`}
                  {issue.assignee ? ` · assigned to ${issue.assignee.name}` : ''}
                </Text>
              </Group>
            </Stack>
          );
        }}
      </PanelList>
      <IssueFormModal opened={adding} onClose={close} client={client} />
    </>
  );
}
