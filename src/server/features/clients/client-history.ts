import type { Kysely } from 'kysely';
import { clientEventKindSchema, duplicateSourceIn, type ClientEvent } from '#shared/events.ts';
import type { Access } from '#shared/people.ts';
import type { Database } from '#server/db/schema.ts';
import { presentEvent } from '#server/realtime/event-log.ts';
import { idsOutOfReach } from '#server/auth/tag-scope.ts';

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

/**
 * The events as `access` may read them: a copy's event names the client it was made from only
 * to those who may see that client. The copy may have gone to tags the original does not share,
 * and a client out of a person's reach does not exist for them, its id included.
 */
export async function withSourcesInReach(
  db: Kysely<Database>,
  access: Access,
  events: ClientEvent[],
): Promise<ClientEvent[]> {
  const copies = events.filter((event) => event.kind === 'client.duplicated');
  const sources = copies.flatMap((event) =>
    event.fields.flatMap((f) => duplicateSourceIn(f) ?? []),
  );
  const hidden = new Set(await idsOutOfReach(db, access, sources));
  if (hidden.size === 0) return events;
  return events.map((event) =>
    event.kind === 'client.duplicated'
      ? { ...event, fields: event.fields.filter((f) => !hidden.has(duplicateSourceIn(f) ?? '')) }
      : event,
  );
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
