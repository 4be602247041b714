import { Link } from 'react-router';
import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { Issue } from '#shared/issues.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { useCan } from '#client/lib/use-can.ts';
import { issuesQuery } from '../api/issue-queries.ts';
import { issueSubject } from '../issue-text.ts';
import { IssueFormModal } from './issue-form.tsx';
import { IssueKindBadge } from './issue-badges.tsx';
import { issuePagePath } from './issue-list.tsx';
import { PersonName } from './person-name.tsx';

/** A client's open issues in its panel, each linking to its page, and a way to open one. */
export function OpenIssues({ client }: { client: Issue['client'] }) {
  const issues = useQuery(issuesQuery({ clientId: client.id, state: 'open' }));
  const [adding, { open, close }] = useDisclosure(false);
  const mayWrite = useCan('write');

  let body;
  if (issues.isPending) {
    body = <Skeleton height={32} role="status" aria-label="Loading open issues" />;
  } else if (issues.isError) {
    body = (
      <ErrorAlert
        title="Could not load the issues"
        error={issues.error}
        onRetry={() => void issues.refetch()}
      />
    );
  } else if (issues.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        No open issues
      </Text>
    );
  } else {
    body = (
      <Stack
        gap={8}
        component="ul"
        aria-label="Open issues"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {issues.data.map((issue) => {
          const subject = issueSubject(issue);
          return (
            <Stack key={issue.id} component="li" gap={2}>
              <Anchor
                component={Link}
                to={issuePagePath(issue.id)}
                size="sm"
                fw={600}
                style={{ overflowWrap: 'anywhere' }}
              >
                {issue.title}
              </Anchor>
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
        })}
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
          New issue
        </Button>
      )}
      <IssueFormModal opened={adding} onClose={close} client={client} />
    </Stack>
  );
}
