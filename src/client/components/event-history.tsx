import { useState, type ReactNode } from 'react';
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ClientEvent } from '#shared/events.ts';
import { ErrorAlert } from './error-alert.tsx';
import { describeEvent, formatDateTime } from '#client/lib/history-text.ts';
import classes from './event-history.module.css';

const SHOWN_AT_FIRST = 8;

/**
 * A history from the event log, newest first: who did what and when, the first few with a
 * button for the rest. `after` adds to an event's sentence (a link to a duplicate's original);
 * `empty`, when given, is shown instead of an empty list.
 */
export function EventHistory({
  history,
  after,
  empty,
}: {
  history: UseQueryResult<ClientEvent[]>;
  after?: (event: ClientEvent) => ReactNode;
  empty?: string;
}) {
  const [showAll, setShowAll] = useState(false);

  if (history.isPending) {
    return <Skeleton height={48} role="status" aria-label="Loading history" />;
  }
  if (history.isError) {
    return (
      <ErrorAlert
        title="Could not load the history"
        error={history.error}
        onRetry={() => void history.refetch()}
      />
    );
  }
  if (empty !== undefined && history.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  const events = showAll ? history.data : history.data.slice(0, SHOWN_AT_FIRST);
  return (
    <Stack gap={6}>
      <ol className={classes.list} aria-label="History">
        {events.map((event) => (
          <li key={event.seq} className={classes.item}>
            <Text size="sm" className={classes.what}>
              <Text span fw={600} size="sm">
                {event.actor.name}
              </Text>{' '}
              {describeEvent(event)}
              {after?.(event)}
            </Text>
            <Text size="xs" c="dimmed" component="time" dateTime={event.at}>
              {formatDateTime(event.at)}
            </Text>
          </li>
        ))}
      </ol>
      {history.data.length > SHOWN_AT_FIRST && (
        <Button variant="subtle" size="compact-sm" onClick={() => setShowAll((all) => !all)}>
          {showAll ? 'Show fewer' : `Show all ${history.data.length} events`}
        </Button>
      )}
    </Stack>
  );
}
