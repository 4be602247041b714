import type { Kysely } from 'kysely';
import { clientEventKindSchema, type ClientEvent } from '#shared/events.ts';
import type { Database } from '#server/db/schema.ts';
import { presentEvent } from '#server/realtime/event-log.ts';

/** More than a panel needs; a client's history rarely comes near it. */
export const HISTORY_LIMIT = 500;

/**
 * One client's events from the event log, newest first. The log keeps the events of a
 * deleted client (it has no foreign key), so this answers for those too. Events carry field
 * names only, never values, so nothing secret can come out of here.
 */
export function readClientHistory(
  db: Kysely<Database>,
  clientId: string,
  limit = HISTORY_LIMIT,
): Promise<ClientEvent[]> {
  return readHistory(db, 'clientId', clientId, limit);
}

/** One server's events (`event.serverId`), newest first, as readClientHistory reads a client's. */
export function readServerHistory(
  db: Kysely<Database>,
  serverId: string,
  limit = HISTORY_LIMIT,
): Promise<ClientEvent[]> {
  return readHistory(db, 'serverId', serverId, limit);
}

async function readHistory(
  db: Kysely<Database>,
  column: 'clientId' | 'serverId',
  id: string,
  limit: number,
): Promise<ClientEvent[]> {
  const rows = await db
    .selectFrom('event')
    .selectAll()
    .where(column, '=', id)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  return rows.flatMap((row) => {
    // A kind written by a newer version of the app is skipped, not a 500.
    const kind = clientEventKindSchema.safeParse(row.kind);
    if (!kind.success) return [];
    return [presentEvent(row, kind.data)];
  });
}
