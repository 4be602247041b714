import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '#client/components/error-alert.tsx';
import { historyQuery } from '../api/client-queries.ts';
import { describeEvent, duplicatedFrom, formatDateTime } from '#client/lib/history-text.ts';
import classes from '#client/components/event-history.module.css';

const SHOWN_AT_FIRST = 8;

/**
 * Who did what to the client, newest first, from the event log. The live feed invalidates it
 * on every event of this client (a password read included), so it updates as it happens.
 */
export function ClientHistory({ clientId }: { clientId: string }) {
  const history = useQuery(historyQuery(clientId));
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
  const events = showAll ? history.data : history.data.slice(0, SHOWN_AT_FIRST);
  return (
    <Stack gap={6}>
      <ol className={classes.list} aria-label="History">
        {events.map((event) => {
          const source = duplicatedFrom(event);
          return (
            <li key={event.seq} className={classes.item}>
              <Text size="sm" className={classes.what}>
                <Text span fw={600} size="sm">
                  {event.actor.name}
                </Text>{' '}
                {describeEvent(event)}
                {source && (
                  <>
                    {' of '}
                    <Anchor
                      component={Link}
                      to={`/clients/${encodeURIComponent(source)}`}
                      size="sm"
                    >
                      the original
                    </Anchor>
                  </>
                )}
              </Text>
              <Text size="xs" c="dimmed" component="time" dateTime={event.at}>
                {formatDateTime(event.at)}
              </Text>
            </li>
          );
        })}
      </ol>
      {history.data.length > SHOWN_AT_FIRST && (
        <Button variant="subtle" size="compact-sm" onClick={() => setShowAll((all) => !all)}>
          {showAll ? 'Show fewer' : `Show all ${history.data.length} events`}
        </Button>
      )}
    </Stack>
  );
}
