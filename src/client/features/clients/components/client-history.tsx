import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ClientEvent } from '#shared/events.ts';
import { EventHistory } from '#client/components/event-history.tsx';
import { historyQuery } from '../api/client-queries.ts';
import { duplicatedFrom } from '#client/lib/history-text.ts';

/**
 * Who did what to the client, newest first, from the event log. The live feed invalidates it
 * on every event of this client (a password read included), so it updates as it happens.
 */
export function ClientHistory({ clientId }: { clientId: string }) {
  return <EventHistory history={useQuery(historyQuery(clientId))} after={originalLink} />;
}

/** A duplicate's event links to the client it was made from. */
function originalLink(event: ClientEvent) {
  const source = duplicatedFrom(event);
  if (!source) return null;
  return (
    <>
      {' of '}
      <Anchor component={Link} to={`/clients/${encodeURIComponent(source)}`} size="sm">
        the original
      </Anchor>
    </>
  );
}
