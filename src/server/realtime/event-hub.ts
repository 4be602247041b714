import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  duplicateSourceIn,
  STREAM_READY_EVENT,
  STREAM_RESET_EVENT,
  type ClientEvent,
} from '#shared/events.ts';
import type { Database } from '#server/db/schema.ts';
import type { Access } from '#shared/people.ts';
import { latestSeq, readLoggedEventsAfter } from './event-log.ts';
import {
  canReceive,
  mustReload,
  scopesOf,
  type EventScope,
  type ScopedEvent,
} from './event-scope.ts';

/** A live stream as the hub sees it: something that takes SSE text. */
export interface StreamSink {
  userId: string;
  /** The session the stream was opened with; the stream ends when that session does. */
  sessionId: string;
  /**
   * The person's role and tags when the stream opened: they decide which events it gets. The
   * stream ends when they change (stream-access.ts), and the browser reconnects with the new.
   */
  access: Access;
  write(chunk: string | Buffer): void;
  /** Bytes queued in the socket and not yet sent; a reader this far behind is cut off. */
  pending(): number;
  /** False once the browser has gone: a replay for it stops. */
  open(): boolean;
  end(): void;
}

interface Subscriber {
  sink: StreamSink;
  lastSent: number;
}

/** An event ready to send: its frame, encoded once for every stream, and who may have it. */
interface Sendable {
  seq: number;
  bytes: Buffer;
  /** What decides its scope, to read it again for a replay. */
  about: ScopedEvent;
  scope: EventScope;
  /**
   * The person whose role, tags or sessions this event changed: their streams end before any
   * later event, which their old access must not decide.
   */
  endsStreamsOf: string | null;
}

/**
 * Events after which a person's open streams no longer match what they may see. A second
 * factor turned off or reset may leave them owing one under REQUIRE_2FA, which the stream's
 * reconnection then asks for, as every other request does.
 */
const ACCESS_CHANGES: ReadonlySet<ClientEvent['kind']> = new Set([
  'person.role_changed',
  'person.tags_changed',
  'person.disabled',
  'person.signed_out',
  'person.second_factor_removed',
  'person.second_factor_reset',
]);

const DEFAULT_RING_SIZE = 4096;
/** The browser reloads everything on it (live-updates.ts); it names nothing. */
const RELOAD_FRAME = `event: ${STREAM_RESET_EVENT}\ndata: {}\n\n`;
/** Events read from the table at a time, live or for a replay. */
const PAGE = 500;
/**
 * Between keep-alive comments on a stream (the live one, a run's log): well inside a proxy's
 * usual idle timeout and the server's own (CONNECTION_TIMEOUT_MS in app.ts), which would
 * otherwise close a quiet one.
 */
export const STREAM_KEEP_ALIVE_MS = 25_000;
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * An event as the stream sends it. A copy's event leaves out the client it was made from: the
 * stream decides by the copy's tags as they are when it sends (a replay, long after), and the
 * copy may have gone to tags the original does not share. The copy's history names the original
 * to those who may see it (features/clients/client-history.ts).
 */
export function eventFrame(event: ClientEvent): string {
  const sent =
    event.kind === 'client.duplicated'
      ? {
          ...event,
          fields: event.fields.filter((field) => duplicateSourceIn(field) === undefined),
        }
      : event;
  return `id: ${event.seq}\nevent: ${event.kind}\ndata: ${JSON.stringify(sent)}\n\n`;
}

/**
 * `text` encoded in memory of its own. `Buffer.from` cuts a short text from a slab shared with
 * every other small buffer (Buffer.poolSize, 64 KB in Node 24), and a slice that is kept keeps
 * its whole slab alive: a ring of thousands of frames, each cut between the database driver's
 * buffers from a different slab, would hold a slab for nearly every frame.
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * Fans the event log out to live streams. The log table is the only source: a wake-up (a
 * local write, a timer, or another instance's NOTIFY on PostgreSQL) makes the hub read what is
 * new by sequence number, serialise each event once and write it to every subscriber that may
 * see it (its scope, event-scope.ts: a person limited by tags gets only their clients' events,
 * and only administrators get the audit trail of people). A
 * subscriber that resumes from an id is replayed from the recent ring, or from the table when
 * it is further behind, so no event is missed around a reconnect. While the database is
 * unreachable, reads fail and are retried by the next wake-up; streams stay open meanwhile.
 */
export class EventHub {
  readonly #db: Kysely<Database>;
  readonly #log: FastifyBaseLogger;
  readonly #subscribers = new Set<Subscriber>();
  /**
   * Streams still being sent what they missed, not yet subscribers: ended as those are (their
   * session ended, their access changed, shutdown), which stops their replay before its next
   * page. A replay of a long log would otherwise go on with the access its stream opened with.
   */
  readonly #replaying = new Set<StreamSink>();
  readonly #ring: Sendable[] = [];
  readonly #ringSize: number;
  readonly #pageSize: number;
  readonly #keepAliveMs: number;
  #cursor = 0;
  #reading: Promise<void> | null = null;
  #readAgain = false;
  #failing = false;
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  readonly #listeners: (() => void)[] = [];

  constructor(
    db: Kysely<Database>,
    log: FastifyBaseLogger,
    options: { ringSize?: number; pageSize?: number; keepAliveMs?: number } = {},
  ) {
    this.#db = db;
    this.#log = log;
    this.#ringSize = options.ringSize ?? DEFAULT_RING_SIZE;
    this.#pageSize = options.pageSize ?? PAGE;
    this.#keepAliveMs = options.keepAliveMs ?? STREAM_KEEP_ALIVE_MS;
  }

  get cursor(): number {
    return this.#cursor;
  }

  get size(): number {
    return this.#subscribers.size;
  }

  async start(pollMs = 1000): Promise<void> {
    this.#cursor = await latestSeq(this.#db);
    // The poll is a safety net for writers the hub is not told about (another process on the
    // same SQLite file, a NOTIFY lost while reconnecting); local writes and, on PostgreSQL,
    // other instances' notifications wake it at once.
    this.#timer = setInterval(() => void this.wake(), pollMs).unref();
    this.#heartbeat = setInterval(
      () => this.#broadcast(': keep-alive\n\n'),
      this.#keepAliveMs,
    ).unref();
  }

  /**
   * Calls `listener` after each read that found new events (the webhook outbox), so that
   * whatever follows the log wakes on the hub's wake-ups instead of polling on its own.
   */
  onNewEvents(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Reads and sends whatever is new. Calls made while a read runs fold into one more read. */
  wake(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      try {
        do {
          this.#readAgain = false;
          await this.#readNew();
        } while (this.#readAgain);
        if (this.#failing) this.#log.info('event hub reads the event log again');
        this.#failing = false;
      } catch (error) {
        // Said once per outage, not once per poll.
        if (!this.#failing) {
          this.#log.error({ err: error }, 'event hub could not read the event log; retrying');
        }
        this.#failing = true;
      } finally {
        this.#reading = null;
      }
    })();
    return this.#reading;
  }

  async #readNew(): Promise<void> {
    const before = this.#cursor;
    try {
      await this.#readPages();
    } finally {
      if (this.#cursor !== before) for (const listener of this.#listeners) listener();
    }
  }

  async #readPages(): Promise<void> {
    for (;;) {
      const events = await this.#readPage(this.#cursor);
      for (const event of events) {
        this.#ring.push(event);
        if (this.#ring.length > this.#ringSize) this.#ring.shift();
        this.#cursor = event.seq;
        if (event.endsStreamsOf !== null) this.#dropPerson(event.endsStreamsOf);
        for (const sub of this.#subscribers) {
          if (sub.lastSent < event.seq) this.#send(sub, event);
        }
      }
      if (events.length < this.#pageSize) return;
    }
  }

  /**
   * The events after `after`, a page of them, each serialised and encoded once (the same bytes
   * go to every stream that may have it) with its scope, read for the page as a whole.
   */
  async #readPage(after: number): Promise<Sendable[]> {
    const logged = await readLoggedEventsAfter(this.#db, after, this.#pageSize);
    if (logged.length === 0) return [];
    const about = logged.map(({ event, tagsBefore }): ScopedEvent => ({
      kind: event.kind,
      clientId: event.clientId,
      credentialId: event.credentialId,
      tagsBefore,
    }));
    const scopes = await scopesOf(this.#db, about);
    return logged.map(({ event }, i) => ({
      seq: event.seq,
      bytes: ownBytes(eventFrame(event)),
      about: about[i]!,
      scope: scopes[i]!,
      endsStreamsOf: ACCESS_CHANGES.has(event.kind) ? event.personId : null,
    }));
  }

  #send(sub: Subscriber, event: Sendable): void {
    // Not this person's to see: skipped, as if it had been sent, so it is never sent later.
    if (!canReceive(sub.sink.access, event.scope)) {
      sub.lastSent = event.seq;
      // A client may just have left their tags: without a word it would stay on their screen.
      if (mustReload(sub.sink.access, event.scope)) sub.sink.write(RELOAD_FRAME);
      return;
    }
    if (sub.sink.pending() > MAX_PENDING_BYTES) {
      // Too slow to keep up: cut it off; the browser reconnects with its Last-Event-ID and
      // catches up from the table instead of holding memory here.
      this.#drop(sub);
      return;
    }
    sub.sink.write(event.bytes);
    sub.lastSent = event.seq;
  }

  /** Ends the person's streams; the browser reconnects with their access as it is now. */
  #dropPerson(userId: string): void {
    this.#endWhere((sink) => sink.userId === userId);
  }

  /** Ends the streams, replaying or subscribed, whose sink is one of these. */
  #endWhere(ends: (sink: StreamSink) => boolean): void {
    for (const sub of this.#subscribers) if (ends(sub.sink)) this.#drop(sub);
    for (const sink of this.#replaying) {
      if (!ends(sink)) continue;
      this.#replaying.delete(sink);
      sink.end();
    }
  }

  #broadcast(chunk: string): void {
    for (const sub of this.#subscribers) sub.sink.write(chunk);
  }

  #drop(sub: Subscriber): void {
    this.#subscribers.delete(sub);
    sub.sink.end();
  }

  /**
   * Adds a stream. With `lastEventId` it first receives every event after that id, in order;
   * an id the server does not know (ahead of its log) gets a reset signal instead.
   */
  async subscribe(sink: StreamSink, lastEventId: number | null): Promise<() => void> {
    this.#replaying.add(sink);
    try {
      return await this.#replayThenJoin(sink, lastEventId);
    } finally {
      this.#replaying.delete(sink);
    }
  }

  async #replayThenJoin(sink: StreamSink, lastEventId: number | null): Promise<() => void> {
    // Ended while it replayed (by #endWhere, which has ended the sink): it joins nothing.
    const ended = () => !this.#replaying.has(sink);
    // Catch up with the table first (a write may have committed a moment ago, here or on
    // another instance): what was committed before the stream opened comes before its
    // `stream.ready`, and an id that seems ahead of the log is checked against the table.
    await this.wake();
    let from = lastEventId ?? this.#cursor;
    if (from > this.#cursor) {
      sink.write(`event: ${STREAM_RESET_EVENT}\ndata: {}\n\n`);
      from = this.#cursor;
    }
    const rescoped = new Map<number, EventScope>();
    for (;;) {
      // Further behind than the ring reaches: page through the table until the ring takes
      // over. Read with the scopes of now, as a live event is.
      while (from < this.#ringStart() - 1) {
        // A reader that has gone, or does not read as fast as the log is paged to it, gets no
        // more of it: paging on would queue the whole log in its socket's memory, however
        // long. The browser reconnects with the Last-Event-ID it got to, and goes on from there.
        if (ended()) return () => {};
        if (!sink.open() || sink.pending() > MAX_PENDING_BYTES) {
          sink.end();
          return () => {};
        }
        const events = await this.#readPage(from);
        const last = events.at(-1);
        if (!last) break;
        for (const event of events) {
          if (canReceive(sink.access, event.scope)) sink.write(event.bytes);
        }
        from = last.seq;
      }
      if (sink.access.tags === null) break;
      // The ring holds each event's scope as of when it was first sent: for a person limited
      // by tag, read them again as of now (a client may have left their tags since). An event
      // that arrives meanwhile is scoped as freshly.
      const replayed = this.#ring.filter((event) => event.seq > from);
      const scopes = await scopesOf(
        this.#db,
        replayed.map((event) => event.about),
      );
      replayed.forEach((event, i) => rescoped.set(event.seq, scopes[i]!));
      // Unless the ring moved past `from` meanwhile: then page on from the table.
      if (from >= this.#ringStart() - 1) break;
    }
    if (ended()) return () => {};
    // From here on everything is synchronous, so no broadcast can slip in between.
    for (const event of this.#ring) {
      const scope = rescoped.get(event.seq) ?? event.scope;
      if (event.seq > from && canReceive(sink.access, scope)) sink.write(event.bytes);
    }
    const sub: Subscriber = { sink, lastSent: Math.max(from, this.#cursor) };
    sink.write(`event: ${STREAM_READY_EVENT}\ndata: ${JSON.stringify({ seq: sub.lastSent })}\n\n`);
    this.#subscribers.add(sub);
    return () => {
      this.#subscribers.delete(sub);
    };
  }

  #ringStart(): number {
    return this.#ring[0]?.seq ?? this.#cursor + 1;
  }

  /** The sessions that have a stream open here. */
  sessionIds(): string[] {
    return [...new Set(this.sinks().map((sink) => sink.sessionId))];
  }

  /** The streams open here, replaying or subscribed, as their sinks (who, with what access). */
  sinks(): StreamSink[] {
    return [...[...this.#subscribers].map((sub) => sub.sink), ...this.#replaying];
  }

  /** Ends these streams (their person's role or tags changed since they opened). */
  disconnect(sinks: ReadonlySet<StreamSink>): void {
    this.#endWhere((sink) => sinks.has(sink));
  }

  /** Ends the streams opened with any of these sessions (signed out, expired, disabled). */
  disconnectSessions(sessionIds: ReadonlySet<string>): void {
    this.#endWhere((sink) => sessionIds.has(sink.sessionId));
  }

  /** Ends every stream (on shutdown), so the server can close without waiting for them. */
  close(): void {
    clearInterval(this.#timer);
    clearInterval(this.#heartbeat);
    this.#endWhere(() => true);
  }
}
