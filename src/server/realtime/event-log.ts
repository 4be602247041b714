import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ClientEvent, ClientEventKind } from '#shared/events.ts';
import type { Database, EventTable } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import { toIso, toStringList } from '#server/db/codec.ts';
import type { Actor } from '#shared/events.ts';

/** The PostgreSQL channel on which a committed event wakes every instance (pg-wakeup.ts). */
export const EVENT_CHANNEL = 'clients_manager_events';

/** Key of the transaction-level advisory lock that orders event commits (see appendEvent). */
export const EVENT_APPEND_LOCK = 4_350_262_851;

/**
 * Appends one event inside the caller's transaction, so a write and its event commit together.
 * Returns its sequence number.
 *
 * Readers follow the log by sequence number (`seq > cursor`), so an event must never become
 * visible after a higher one. SQLite has one writer at a time, so that holds by itself. On
 * PostgreSQL an identity value is taken at insert but seen at commit: two writers could take
 * 10 and 11 and commit 11 first, and a reader that moved its cursor to 11 would skip 10 for
 * ever. So every append first takes one transaction-level advisory lock, held until commit or
 * rollback: appends (and hence commits of writes with events) happen one at a time, and seq
 * order is commit order across every instance. Under that lock the number is the last one
 * plus one, so the log has no gaps on either database, not even after a crash. The lock is taken last in each write, after
 * its row locks, so it cannot take part in a deadlock; commits of event-writing transactions
 * are serialised, which at this tool's write rate costs nothing noticeable.
 *
 * On PostgreSQL the append also queues a NOTIFY, which PostgreSQL delivers only at commit (and
 * never for a rollback): it wakes the other instances, which then read the log themselves.
 */
export async function appendEvent(
  trx: Transaction<Database>,
  dialect: Dialect,
  event: NewEvent,
): Promise<number> {
  const [seq] = await appendEvents(trx, dialect, [event]);
  return seq!;
}

/** What an event records. The actor's id is null for the command line (no signed-in user). */
export interface NewEvent {
  kind: ClientEventKind;
  /** Null only for a `credential.*` or `person.*` event. */
  clientId: string | null;
  /** For a `server.*` event: the server. */
  serverId?: string;
  /** For a `credential.*` event: the credential. */
  credentialId?: string;
  /** For a `person.*` event: the person. */
  personId?: string;
  /** For a `webhook.*` event: the endpoint. */
  webhookId?: string;
  /** For an `app.*` or `run.*` event, or an issue of an app: the app. */
  appId?: string;
  /** For a `run.*` event: the run. */
  runId?: string;
  /** For an `issue.*` event: the issue. */
  issueId?: string;
  actor: Actor | { id: null; name: string };
  fields: readonly string[];
  at: string;
  /** For a `client.updated` event that changed the tags: the client's tags before it. */
  tagsBefore?: readonly string[];
}

/** Rows per insert statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const EVENTS_PER_INSERT = 500;

/**
 * Appends several events in order inside the caller's transaction (an import writes thousands
 * at once), as appendEvent does for one: under the same lock, numbered on from the last one,
 * with one NOTIFY for the lot. Returns their sequence numbers.
 */
export async function appendEvents(
  trx: Transaction<Database>,
  dialect: Dialect,
  events: readonly NewEvent[],
): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => ({
    kind: event.kind,
    clientId: event.clientId,
    serverId: event.serverId ?? null,
    credentialId: event.credentialId ?? null,
    personId: event.personId ?? null,
    webhookId: event.webhookId ?? null,
    appId: event.appId ?? null,
    runId: event.runId ?? null,
    issueId: event.issueId ?? null,
    actorId: event.actor.id,
    actorName: event.actor.name,
    at: event.at,
    fields: JSON.stringify(event.fields),
    tagsBefore: event.tagsBefore === undefined ? null : JSON.stringify(event.tagsBefore),
  }));
  const seqs: number[] = [];
  if (dialect === 'sqlite') {
    // AUTOINCREMENT's counter lives in a table that rolls back with the transaction: no gaps.
    for (let i = 0; i < rows.length; i += EVENTS_PER_INSERT) {
      const inserted = await trx
        .insertInto('event')
        .values(rows.slice(i, i + EVENTS_PER_INSERT))
        .returning('seq')
        .execute();
      seqs.push(...inserted.map(({ seq }) => Number(seq)).sort((a, b) => a - b));
    }
    return seqs;
  }
  await sql`select pg_advisory_xact_lock(${sql.lit(EVENT_APPEND_LOCK)})`.execute(trx);
  // The number is the next one after the last committed event, not the identity's: an identity
  // value taken by a transaction that then rolls back (or whose process was killed) would be a
  // hole for ever. Under the lock nobody else appends, so max + 1 is free, and a number that was
  // rolled back was never seen by anyone, so the next append may take it.
  const { next } = await trx
    .selectFrom('event')
    .select(sql<string>`coalesce(max("seq"), 0) + 1`.as('next'))
    .executeTakeFirstOrThrow();
  const first = Number(next);
  for (let i = 0; i < rows.length; i += EVENTS_PER_INSERT) {
    const values = rows.slice(i, i + EVENTS_PER_INSERT).map((row, j) => {
      const seq = first + i + j;
      seqs.push(seq);
      return sql`(${seq}, ${row.kind}, ${row.clientId}, ${row.serverId}, ${row.credentialId}, ${row.personId}, ${row.webhookId}, ${row.appId}, ${row.runId}, ${row.issueId}, ${row.actorId}, ${row.actorName}, ${row.at}, ${row.fields}, ${row.tagsBefore})`;
    });
    await sql`insert into "event" ("seq", "kind", "clientId", "serverId", "credentialId", "personId", "webhookId", "appId", "runId", "issueId", "actorId", "actorName", "at", "fields", "tagsBefore")
      overriding system value
      values ${sql.join(values)}`.execute(trx);
  }
  await sql`select pg_notify(${EVENT_CHANNEL}, ${String(seqs.at(-1))})`.execute(trx);
  return seqs;
}

/** An event as the live stream reads it: as presented, and what it alone needs to know. */
export interface LoggedEvent {
  event: ClientEvent;
  /** NewEvent's `tagsBefore`: kept beside the event, so that it is never sent. */
  tagsBefore: string[] | null;
}

/** Events after `afterSeq`, oldest first, as the live stream reads them. */
export async function readLoggedEventsAfter(
  db: Kysely<Database>,
  afterSeq: number,
  limit: number,
): Promise<LoggedEvent[]> {
  const rows = await db
    .selectFrom('event')
    .selectAll()
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    event: presentEvent(row, row.kind as ClientEventKind),
    tagsBefore: row.tagsBefore === null ? null : toStringList(row.tagsBefore),
  }));
}

/** An event row as the feed and the histories present it. */
export function presentEvent(row: Selectable<EventTable>, kind: ClientEventKind): ClientEvent {
  return {
    seq: Number(row.seq),
    kind,
    clientId: row.clientId,
    serverId: row.serverId,
    credentialId: row.credentialId,
    personId: row.personId,
    webhookId: row.webhookId,
    appId: row.appId,
    runId: row.runId,
    issueId: row.issueId,
    actor: { id: row.actorId, name: row.actorName },
    at: toIso(row.at),
    fields: toStringList(row.fields),
  };
}

export async function latestSeq(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('event')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
