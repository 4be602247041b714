import { Link, useParams } from 'react-router';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Issue } from '#shared/issues.ts';
import { EditIcon } from '#client/components/icons.tsx';
import { RecordField, RecordHeading, RecordPage } from '#client/components/record-page.tsx';
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
import { PROBLEM_LABELS } from './issue-text.ts';

const ISSUES = { to: '/issues', name: 'issues' };

export function IssuePage() {
  const { issueId = '' } = useParams();
  return (
    <RecordPage
      record={useQuery(issueQuery(issueId))}
      noun="issue"
      gone="deleted with its client"
      list={ISSUES}
      blocks={[160, 80]}
    >
      {(issue) => <IssueDetails issue={issue} />}
    </RecordPage>
  );
}

function IssueDetails({ issue }: { issue: Issue }) {
  const [editing, { open: openEdit, close: closeEdit }] = useDisclosure(false);
  const mayWrite = useCan('write');
  return (
    <Stack gap="lg" maw={960}>
      <RecordHeading
        list={ISSUES}
        title={issue.title}
        badges={
          <>
            <IssueStateBadge state={issue.state} />
            <IssueKindBadge kind={issue.kind} />
          </>
        }
        of={{ what: 'Issue', client: issue.client }}
      />

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
              <RecordField label="Server">
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
              </RecordField>
              <RecordField label="App">
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
              </RecordField>
              <RecordField label="Opened by">
                <PersonName person={issue.author} />
                {`, ${formatDateTime(issue.createdAt)}`}
              </RecordField>
              <RecordField label="Assignee">
                {issue.assignee ? issue.assignee.name : 'Nobody'}
              </RecordField>
              {issue.state === 'resolved' && issue.resolvedAt && (
                <RecordField label="Resolved by">
                  {issue.resolvedBy ? <PersonName person={issue.resolvedBy} /> : 'Someone'}
                  {`, ${formatDateTime(issue.resolvedAt)}`}
                </RecordField>
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
