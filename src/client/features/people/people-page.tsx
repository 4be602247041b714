import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Group, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { Person } from '#shared/people-admin.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { PlusIcon } from '#client/components/icons.tsx';
import { useMe } from '#client/lib/session.ts';
import { peopleQuery, type AuditFilter } from './api/people-queries.ts';
import { PersonList } from './components/person-list.tsx';
import { AccessModal } from './components/access-modal.tsx';
import { InviteModal } from './components/invite-modal.tsx';
import { InvitationList } from './components/invitation-list.tsx';
import { AuditTrail } from './components/audit-trail.tsx';
import { usePageTitle } from '#client/components/page-title.ts';

const AUDIT_FILTERS = ['kind', 'actor', 'person'] as const;

/**
 * People (administrators only): everyone's role, tags, second factor and devices, with the
 * actions on them, the pending invitations, and the audit trail.
 */
export function PeoplePage() {
  usePageTitle('People');
  const me = useMe();
  const people = useQuery({ ...peopleQuery(), enabled: me.role === 'admin' });
  const [editing, setEditing] = useState<Person | null>(null);
  const [inviting, { open: openInvite, close: closeInvite }] = useDisclosure(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The trail's filters live in the URL, so a link or Back keeps them.
  const [params, setParams] = useSearchParams();
  const filter: AuditFilter = {};
  for (const name of AUDIT_FILTERS) {
    const value = params.get(name);
    if (value) filter[name] = value;
  }
  const setFilter = (next: AuditFilter) =>
    setParams(
      () => {
        const search = new URLSearchParams();
        for (const name of AUDIT_FILTERS) if (next[name]) search.set(name, next[name]);
        return search;
      },
      { replace: true },
    );

  if (me.role !== 'admin') {
    return (
      <Stack gap="lg">
        <Title order={1} size="h2">
          People
        </Title>
        <Alert color="yellow" role="alert">
          Only an administrator may manage people.
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          People
        </Title>
        <Button leftSection={<PlusIcon size={16} />} onClick={openInvite}>
          Invite
        </Button>
      </Group>
      {problem && (
        <Alert
          color="red"
          role="alert"
          title="Not done"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setProblem(null)}
        >
          {problem}
        </Alert>
      )}
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        {people.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading people">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : people.isError ? (
          <ErrorAlert
            title="Could not load the people"
            error={people.error}
            onRetry={() => void people.refetch()}
          />
        ) : (
          <PersonList
            people={people.data.people}
            meId={me.id}
            onEditAccess={setEditing}
            onProblem={setProblem}
          />
        )}
      </Paper>
      <Stack gap="sm" component="section" aria-labelledby="invitations-title">
        <Title order={2} size="h3" id="invitations-title">
          Pending invitations
        </Title>
        {people.data && <InvitationList invitations={people.data.invitations} />}
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="audit-title">
        <Title order={2} size="h3" id="audit-title">
          Audit trail
        </Title>
        <AuditTrail people={people.data?.people ?? []} filter={filter} onFilter={setFilter} />
      </Stack>
      <AccessModal person={editing} onClose={() => setEditing(null)} />
      <InviteModal opened={inviting} onClose={closeInvite} />
    </Stack>
  );
}
