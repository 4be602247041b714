import { useQuery } from '@tanstack/react-query';
import { EventHistory } from '#client/components/event-history.tsx';
import { serverHistoryQuery } from '#client/lib/server-queries.ts';

/** Who did what to the server, newest first, as the client's history shows it. */
export function ServerHistory({ serverId }: { serverId: string }) {
  return (
    <EventHistory history={useQuery(serverHistoryQuery(serverId))} empty="Nothing recorded yet." />
  );
}
