import type { Selectable } from 'kysely';
import type { Run, RunLogLine, RunLogStream, RunState } from '#shared/apps.ts';
import type { RunLogTable, RunTable } from '#server/db/schema.ts';
import { toBool, toIso } from '#server/db/codec.ts';

export function presentRun(row: Selectable<RunTable>): Run {
  const startedAt = toIso(row.startedAt);
  const endedAt = row.endedAt === null ? null : toIso(row.endedAt);
  return {
    id: row.id,
    appId: row.appId,
    clientId: row.clientId,
    serverId: row.serverId,
    state: row.state as RunState,
    command: row.command,
    startedBy: { id: row.startedById, name: row.startedByName },
    startedAt,
    endedAt,
    durationMs: endedAt === null ? null : Date.parse(endedAt) - Date.parse(startedAt),
    exitCode: row.exitCode === null ? null : Number(row.exitCode),
    signal: row.signal,
    reason: row.reason,
    logBytes: Number(row.logBytes),
    logTruncated: toBool(row.logTruncated),
    cancelRequestedAt: row.cancelRequestedAt === null ? null : toIso(row.cancelRequestedAt),
  };
}

export function presentRunLogLine(row: Selectable<RunLogTable>): RunLogLine {
  return {
    seq: Number(row.seq),
    stream: row.stream as RunLogStream,
    text: row.text,
    at: toIso(row.at),
  };
}
