import type { Kysely, Transaction } from 'kysely';
import type { ClientEvent, ClientEventKind } from '#shared/events.ts';
import type { Database } from '../db/schema.ts';
import { toIso, toStringList } from '../db/codec.ts';
import type { Actor } from '../auth/session-guard.ts';

/** Appends one event inside the caller's transaction, so a write and its event commit together. */
export async function appendEvent(
  trx: Transaction<Database>,
  event: {
    kind: ClientEventKind;
    clientId: string;
    actor: Actor;
    fields: readonly string[];
    at: string;
  },
): Promise<void> {
  await trx
    .insertInto('event')
    .values({
      kind: event.kind,
      clientId: event.clientId,
      actorId: event.actor.id,
      actorName: event.actor.name,
      at: event.at,
      fields: JSON.stringify(event.fields),
    })
    .execute();
}

/** Events after `afterSeq`, oldest first. */
export async function readEventsAfter(
  db: Kysely<Database>,
  afterSeq: number,
  limit: number,
): Promise<ClientEvent[]> {
  const rows = await db
    .selectFrom('event')
    .selectAll()
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    seq: Number(row.seq),
    kind: row.kind as ClientEventKind,
    clientId: row.clientId,
    actor: { id: row.actorId, name: row.actorName },
    at: toIso(row.at),
    fields: toStringList(row.fields),
  }));
}

export async function latestSeq(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('event')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
