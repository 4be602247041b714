import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { clientLabel } from '#shared/clients.ts';
import { RecordUnavailable } from './record-unavailable.tsx';
import { usePageTitle } from './page-title.ts';

/** The list a record's page belongs to: its address and what it lists ('/servers', 'servers'). */
export interface RecordList {
  to: string;
  name: string;
}

/**
 * The page of one record (a server, an app, an issue, a credential) as `record` reads it: a
 * skeleton while it loads, why it cannot be shown when it cannot, else `children` with it.
 */
export function RecordPage<T>({
  record,
  noun,
  gone,
  list,
  blocks,
  children,
}: {
  record: UseQueryResult<T>;
  /** 'server', 'app', 'issue', 'credential'. */
  noun: string;
  /** How one goes away: 'removed', 'deleted'. */
  gone: string;
  list: RecordList;
  /** Heights of the skeleton's blocks under its title's, roughly the page's sections. */
  blocks: readonly number[];
  children: (record: T) => ReactNode;
}) {
  if (record.isPending) {
    return (
      <Stack gap="sm" role="status" aria-label={`Loading ${noun}`}>
        <Skeleton height={32} width="40%" />
        {blocks.map((height, i) => (
          <Skeleton key={i} height={height} />
        ))}
      </Stack>
    );
  }
  if (record.isError) {
    return (
      <RecordUnavailable
        error={record.error}
        onRetry={() => void record.refetch()}
        noun={noun}
        gone={gone}
        back={{ to: list.to, label: `Back to all ${list.name}` }}
        heading={{ order: 1, size: 'h2' }}
      />
    );
  }
  return children(record.data);
}

/**
 * A record's heading: the way back to its list, its title with its badges, and the client it
 * belongs to, if it belongs to one (`of`: 'Server', and the client).
 */
export function RecordHeading({
  list,
  title,
  badges,
  of,
}: {
  list: RecordList;
  title: string;
  badges?: ReactNode;
  of?: { what: string; client: { id: string; name: string; code: string } };
}) {
  usePageTitle(title);
  return (
    <Stack gap={4}>
      <Anchor component={Link} to={list.to} size="sm">
        {`All ${list.name}`}
      </Anchor>
      <Group gap="sm" align="center">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {badges}
      </Group>
      {of && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {`${of.what} of `}
          <Anchor component={Link} to={`/clients/${encodeURIComponent(of.client.id)}`}>
            {clientLabel(of.client)}
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

/** One labelled value of a record's page; `mono` for what is typed as code (a host, a path). */
export function RecordField({
  label,
  mono = false,
  children,
}: {
  label: string;
  mono?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text
        size="sm"
        component="div"
        ff={mono ? 'monospace' : undefined}
        style={{ overflowWrap: 'anywhere' }}
      >
        {children}
      </Text>
    </Stack>
  );
}
