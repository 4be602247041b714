import { useState } from 'react';
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { describeEvent, formatDateTime } from '#client/lib/history-text.ts';
import classes from '#client/components/event-history.module.css';
import { serverHistoryQuery } from '#client/lib/server-queries.ts';

const SHOWN_AT_FIRST = 8;

/** Who did what to the server, newest first, as the client's history shows it. */
export function ServerHistory({ serverId }: { serverId: string }) {
  const history = useQuery(serverHistoryQuery(serverId));
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
  if (history.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing recorded yet.
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
