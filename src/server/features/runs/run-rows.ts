import type { Dialect } from '#server/db/database.ts';
import { fromBool } from '#server/db/codec.ts';

/** A run's row as a deploy records it when it starts: running, no log yet. */
export function startedRunRow(
  dialect: Dialect,
  run: {
    id: string;
    appId: string;
    clientId: string;
    serverId: string | null;
    /** As shown: its secrets masked. */
    command: string;
    startedBy: { id: string | null; name: string };
  },
  at: string,
) {
  return {
    id: run.id,
    appId: run.appId,
    clientId: run.clientId,
    serverId: run.serverId,
    state: 'running' as const,
    command: run.command,
    startedById: run.startedBy.id,
    startedByName: run.startedBy.name,
    startedAt: at,
    endedAt: null,
    exitCode: null,
    signal: null,
    reason: null,
    logBytes: 0,
    logTruncated: fromBool(false, dialect),
    heartbeatAt: at,
    cancelRequestedAt: null,
    cancelRequestedBy: null,
  };
}
