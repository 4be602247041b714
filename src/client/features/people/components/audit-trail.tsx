import { Link } from 'react-router';
import { Anchor, Button, Group, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ClientEvent } from '#shared/events.ts';
import type { Person } from '#shared/people-admin.ts';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { formatDateTime } from '#client/lib/history-text.ts';
import { auditQuery, type AuditFilter } from '../api/people-queries.ts';
import { AUDIT_KIND_OPTIONS, auditText } from '../audit-text.ts';
import { BareList } from '#client/components/bare-list.tsx';

const wrap = { overflowWrap: 'anywhere' } as const;

/**
 * The audit trail: who changed whom, and who read which secret, newest first. The live feed
 * refreshes it (live-updates.ts invalidates it on every such event).
 */
export function AuditTrail({
  people,
  filter,
  onFilter,
}: {
  people: readonly Person[];
  filter: AuditFilter;
  onFilter: (filter: AuditFilter) => void;
}) {
  const audit = useInfiniteQuery(auditQuery(filter));
  const personOptions = people.map((p) => ({ value: p.id, label: p.email }));
  const set = (name: keyof AuditFilter, value: string | null) => {
    const next = { ...filter };
    if (value) next[name] = value;
    else delete next[name];
    onFilter(next);
  };

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="What"
          placeholder="Everything"
          data={AUDIT_KIND_OPTIONS}
          value={filter.kind ?? null}
          onChange={(value) => set('kind', value)}
          clearable
          w={{ base: '100%', xs: 220 }}
        />
        <Select
          label="Done by"
          placeholder="Anyone"
          data={personOptions}
          value={filter.actor ?? null}
          onChange={(value) => set('actor', value)}
          clearable
          searchable
          w={{ base: '100%', xs: 260 }}
        />
        <Select
          label="About"
          placeholder="Anyone"
          data={personOptions}
          value={filter.person ?? null}
          onChange={(value) => set('person', value)}
          clearable
          searchable
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {audit.isPending ? (
        <Stack gap="xs" role="status" aria-label="Loading the audit trail">
          <Skeleton height={28} />
          <Skeleton height={28} />
        </Stack>
      ) : audit.isError ? (
        <ErrorAlert
          title="Could not load the audit trail"
          error={audit.error}
          onRetry={() => void audit.refetch()}
        />
      ) : (
        <AuditEvents
          events={audit.data.pages.flatMap((page) => page.events)}
          names={
            Object.assign({}, ...audit.data.pages.map((page) => page.people)) as Record<
              string,
              string
            >
          }
        />
      )}
      {audit.hasNextPage && (
        <Group>
          <Button
            variant="default"
            onClick={() => void audit.fetchNextPage()}
            loading={audit.isFetchingNextPage}
          >
            Show older
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function AuditEvents({
  events,
  names,
}: {
  events: readonly ClientEvent[];
  names: Record<string, string>;
}) {
  if (events.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        Nothing recorded.
      </Text>
    );
  }
  return (
    <BareList gap={6} label="Audit trail" ordered>
      {events.map((event) => (
        <Text component="li" key={event.seq} size="sm" style={wrap}>
          <Text span fw={600} size="sm">
            {event.actor.name}
          </Text>{' '}
          {auditText(event, event.personId === null ? undefined : names[event.personId])}
          {event.clientId && (
            <>
              {' '}
              <Anchor component={Link} to={`/clients/${encodeURIComponent(event.clientId)}`}>
                (open the client)
              </Anchor>
            </>
          )}
          {event.credentialId && (
            <>
              {' '}
              <Anchor
                component={Link}
                to={`/credentials/${encodeURIComponent(event.credentialId)}`}
              >
                (open the credential)
              </Anchor>
            </>
          )}
          <Text span c="dimmed" size="xs">
            {` · ${formatDateTime(event.at)}`}
          </Text>
        </Text>
      ))}
    </BareList>
  );
}
