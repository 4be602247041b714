import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import {
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Issue } from '#shared/issues.ts';
import { EditIcon } from '#client/components/icons.tsx';
import { RecordUnavailable } from '#client/components/record-unavailable.tsx';
import { Section } from '#client/components/section.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { useCan } from '#client/lib/use-can.ts';
import { useSetIssueState } from './api/issue-mutations.ts';
import { issueQuery } from './api/issue-queries.ts';
import { IssueKindBadge, IssueStateBadge } from './components/issue-badges.tsx';
import { IssueComments } from './components/issue-comments.tsx';
import { IssueFormModal } from './components/issue-form.tsx';
import { PersonName } from './components/person-name.tsx';
import { clientLabel } from '#shared/clients.ts';
import { PROBLEM_LABELS } from './issue-text.ts';

export function IssuePage() {
  const { issueId = '' } = useParams();
  const issue = useQuery(issueQuery(issueId));

  if (issue.isPending) {
    return (
      <Stack gap="sm" role="status" aria-label="Loading issue">
        <Skeleton height={32} width="40%" />
        <Skeleton height={160} />
        <Skeleton height={80} />
      </Stack>
    );
  }
  if (issue.isError) {
    return (
      <RecordUnavailable
        error={issue.error}
        onRetry={() => void issue.refetch()}
        noun="issue"
        gone="deleted with its client"
        back={{ to: '/issues', label: 'Back to all issues' }}
        heading={{ order: 1, size: 'h2' }}
      />
    );
  }
  return <IssueDetails issue={issue.data} />;
}

function IssueDetails({ issue }: { issue: Issue }) {
  const [editing, { open: openEdit, close: closeEdit }] = useDisclosure(false);
  const mayWrite = useCan('write');
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Anchor component={Link} to="/issues" size="sm">
          All issues
        </Anchor>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {issue.title}
        </Title>
        <Group gap="xs">
          <IssueStateBadge state={issue.state} />
          <IssueKindBadge kind={issue.kind} />
        </Group>
        <Text size="sm">
          {'Issue of '}
          <Anchor component={Link} to={`/clients/${encodeURIComponent(issue.client.id)}`}>
            {clientLabel(issue.client)}
          </Anchor>
        </Text>
      </Stack>

      {mayWrite && <IssueActions issue={issue} onEdit={openEdit} />}

      <Paper withBorder radius="md" p="lg">
        <Stack gap="lg">
          {issue.problem && (
            <Text size="sm">{`Opened by the system: ${PROBLEM_LABELS[issue.problem]}.`}</Text>
          )}
          <Section title="Text">
            {issue.text ? (
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{issue.text}</Text>
            ) : (
              <Text size="sm" c="dimmed">
                No text.
              </Text>
            )}
          </Section>

          <Section title="Details">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
              <Field label="Server">
                {issue.server ? (
                  <Anchor
                    component={Link}
                    to={`/servers/${encodeURIComponent(issue.server.id)}`}
                    size="sm"
                  >
                    {issue.server.label}
                  </Anchor>
                ) : (
                  'None'
                )}
              </Field>
              <Field label="App">
                {issue.app ? (
                  <Anchor
                    component={Link}
                    to={`/apps/${encodeURIComponent(issue.app.id)}`}
                    size="sm"
                  >
                    {issue.app.name}
                  </Anchor>
                ) : (
                  'None'
                )}
              </Field>
              <Field label="Opened by">
                <PersonName person={issue.author} />
                {`, ${formatDateTime(issue.createdAt)}`}
              </Field>
              <Field label="Assignee">{issue.assignee ? issue.assignee.name : 'Nobody'}</Field>
              {issue.state === 'resolved' && issue.resolvedAt && (
                <Field label="Resolved by">
                  {issue.resolvedBy ? <PersonName person={issue.resolvedBy} /> : 'Someone'}
                  {`, ${formatDateTime(issue.resolvedAt)}`}
                </Field>
              )}
            </SimpleGrid>
          </Section>

          <Section title="Comments">
            <IssueComments issueId={issue.id} mayWrite={mayWrite} />
          </Section>
        </Stack>
      </Paper>
      <IssueFormModal opened={editing} onClose={closeEdit} issue={issue} />
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function IssueActions({ issue, onEdit }: { issue: Issue; onEdit: () => void }) {
  const setState = useSetIssueState();
  const to = issue.state === 'open' ? 'resolve' : 'reopen';
  return (
    <Group gap="sm">
      <Button variant="default" leftSection={<EditIcon size={16} />} onClick={onEdit}>
        Edit
      </Button>
      <Button
        variant={to === 'resolve' ? 'filled' : 'default'}
        loading={setState.isPending}
        onClick={() =>
          setState.mutate(
            { id: issue.id, to },
            {
              onSuccess: () =>
                notifications.show({
                  color: 'green',
                  message: to === 'resolve' ? 'Issue resolved.' : 'Issue reopened.',
                }),
              onError: (error) =>
                notifyFailure(
                  to === 'resolve' ? 'Could not resolve the issue' : 'Could not reopen the issue',
                  error,
                ),
            },
          )
        }
      >
        {to === 'resolve' ? 'Resolve' : 'Reopen'}
      </Button>
    </Group>
  );
}
