import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { ClientEventKind } from '#shared/events.ts';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookFormatSchema,
} from '#shared/webhooks.ts';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { chunks } from '#server/db/chunks.ts';
import { fromBool, toBool, toIso, toStringList } from '#server/db/codec.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { webhookSecretPlace, type SecretBox } from '#server/secrets.ts';
import { presentEvent } from './event-log.ts';
import { attemptDelivery, type AttemptResult } from './webhook-delivery.ts';
import { selectWithOwner, type OwnerSpeaks } from './webhook-owner.ts';
import { payloadOf } from './webhook-payload.ts';
import { signatureOf } from './webhook-signature.ts';

/** Timings of deliveries; tests shorten them so that they wait on signals, not on the clock. */
export interface WebhookTimings {
  /** The wait before the first retry; it doubles after each failed attempt. Default 10 s. */
  retryDelayMs?: number;
  /** The longest wait between two attempts. Default 1 hour. */
  maxRetryDelayMs?: number;
  /** How long after it was queued a delivery is retried before it is marked failed. 24 h. */
  retryWindowMs?: number;
  /** One attempt, from resolving the host to the answer's status. Default 10 s. */
  timeoutMs?: number;
  /** The safety-net poll for what no wake-up announced (another instance's resend). 5 s. */
  pollMs?: number;
  /** How often finished deliveries older than KEEP_FINISHED_MS are deleted. Default 1 hour. */
  pruneEveryMs?: number;
}

const DEFAULTS: Required<WebhookTimings> = {
  retryDelayMs: 10_000,
  maxRetryDelayMs: 60 * 60_000,
  retryWindowMs: 24 * 60 * 60_000,
  timeoutMs: 10_000,
  pollMs: 5_000,
  pruneEveryMs: 60 * 60_000,
};

/**
 * How long a finished delivery (delivered, or failed after the retry window) is kept after its
 * last attempt, for the endpoint's list and a resend; then the outbox deletes it. A month looks
 * back past a weekend's or a holiday's outage of a receiver; what happened stays in the audit
 * trail, which keeps every event.
 */
export const KEEP_FINISHED_MS = 30 * 24 * 60 * 60_000;
/** Finished deliveries deleted per statement: each is a short transaction, whatever the backlog. */
const PRUNE_BATCH = 500;
/** First half of the prune's advisory lock (the second: 0): one instance at a time deletes. */
const PRUNE_LOCK_CLASS = 435_027;

/** Endpoints whose deliveries one instance makes at once (each holds a connection on PG). */
const ENDPOINTS_AT_ONCE = 4;

/**
 * How many endpoints an instance serves at once with a pool of `poolSize` connections: each
 * holds one for its turn, HTTP attempts included, so at most half the pool, and one at least.
 */
function endpointsAtOnce(poolSize: number | undefined): number {
  if (poolSize === undefined) return ENDPOINTS_AT_ONCE;
  return Math.max(1, Math.min(ENDPOINTS_AT_ONCE, Math.floor(poolSize / 2)));
}
/** Events read per step of an endpoint's cursor. */
const EVENTS_PER_STEP = 500;
/** First half of the two-key advisory lock of an endpoint (the second: a hash of its id). */
const WEBHOOK_LOCK_CLASS = 435_026;

export const WEBHOOK_USER_AGENT = 'clients-manager-webhooks';

/** The wait after `attempts` failed attempts: 10 s, 20 s, 40 s, … up to the cap. */
export function retryDelay(
  attempts: number,
  timings: Pick<Required<WebhookTimings>, 'retryDelayMs' | 'maxRetryDelayMs'>,
): number {
  return Math.min(timings.retryDelayMs * 2 ** Math.max(0, attempts - 1), timings.maxRetryDelayMs);
}

function lockKey(webhookId: string): number {
  return createHash('sha256').update(webhookId).digest().readInt32BE(0);
}

class CursorMoved extends Error {}

/**
 * The webhook outbox. The event log is the outbox itself: each endpoint keeps a cursor (the
 * last sequence number it was given deliveries for). Serving an endpoint:
 *
 * 1. In one transaction: read the events after its cursor, write a `pending` delivery for each
 *    of a kind it wants, move the cursor past them. The log has no gaps and its order is commit
 *    order (event-log.ts), so nothing is skipped, and an event is queued once per endpoint.
 * 2. Attempt the oldest pending delivery; a later one waits until it is delivered or given up
 *    (order per endpoint). A failure is retried after 10 s, doubling up to an hour, for 24
 *    hours after the first attempt; then it is `failed` and the next one goes.
 *
 * The result of an attempt is written after the POST, so a process killed between the two
 * makes the attempt again after its restart: at least once. On PostgreSQL an endpoint is
 * served inside a transaction holding a transaction-level advisory lock keyed by it
 * (`pg_try_advisory_xact_lock`), so one instance at a time makes its deliveries; another
 * instance skips it. A killed instance's lock goes with its connection, at once. SQLite has one
 * instance, which serves each endpoint one at a time.
 *
 * The hub wakes the outbox when it reads new events (event-hub.ts); a timer comes back for the
 * next retry that is due, and polls as a safety net.
 *
 * Finished deliveries are deleted KEEP_FINISHED_MS after their last attempt, at most once per
 * `pruneEveryMs`, PRUNE_BATCH at a time; a pending one never is.
 */
export class WebhookOutbox {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #log: FastifyBaseLogger;
  readonly #allowPrivate: boolean;
  readonly #ownerSpeaks: OwnerSpeaks;
  readonly #timings: Required<WebhookTimings>;
  readonly #stop = new AbortController();
  /** Endpoints being served, each with whether to go round once more when it ends. */
  readonly #serving = new Map<string, { again: boolean; done: Promise<void> }>();
  #slotsFree: number;
  readonly #slotWaiters: (() => void)[] = [];
  #ticking: Promise<void> | null = null;
  #tickAgain = false;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #failing = false;
  #pruning: Promise<void> | null = null;
  /** When the next prune is due: the first tick after the start prunes. */
  #pruneAt = 0;

  constructor(deps: {
    db: Db;
    box: SecretBox;
    log: FastifyBaseLogger;
    allowPrivate: boolean;
    ownerSpeaks: OwnerSpeaks;
    timings?: WebhookTimings;
    /** DATABASE_POOL_SIZE on PostgreSQL: each endpoint served holds a connection for its turn. */
    poolSize?: number;
  }) {
    this.#db = deps.db;
    this.#slotsFree = endpointsAtOnce(deps.poolSize);
    this.#ownerSpeaks = deps.ownerSpeaks;
    this.#box = deps.box;
    this.#log = deps.log;
    this.#allowPrivate = deps.allowPrivate;
    this.#timings = { ...DEFAULTS, ...deps.timings };
  }

  get timings(): Required<WebhookTimings> {
    return this.#timings;
  }

  start(): void {
    this.wake();
  }

  /** Serves every enabled endpoint that has something to do. Calls during a round fold in. */
  wake(): void {
    if (this.#stop.signal.aborted) return;
    if (this.#ticking) {
      this.#tickAgain = true;
      return;
    }
    this.#ticking = (async () => {
      try {
        do {
          this.#tickAgain = false;
          await this.#tick();
        } while (this.#tickAgain && !this.#stop.signal.aborted);
      } finally {
        this.#ticking = null;
      }
    })();
  }

  async #tick(): Promise<void> {
    // With no endpoint switched on (most installations), a write costs this one query.
    let endpointsOn = true;
    try {
      const endpoints = await this.#db.kysely
        .selectFrom('webhook')
        .select('id')
        .where('enabled', '=', fromBool(true, this.#db.dialect))
        .execute();
      for (const { id } of endpoints) this.#kick(id);
      endpointsOn = endpoints.length > 0;
      if (this.#failing) this.#log.info('webhook outbox reads the database again');
      this.#failing = false;
    } catch (error) {
      this.#reportFailure(error);
    }
    if (!this.#pruning && Date.now() >= this.#pruneAt) {
      this.#pruning = this.#prune().finally(() => {
        this.#pruning = null;
      });
    }
    await this.#scheduleNext(endpointsOn);
  }

  /** Deletes the finished deliveries older than KEEP_FINISHED_MS, a batch at a time. */
  async #prune(): Promise<void> {
    const cutoff = new Date(Date.now() - KEEP_FINISHED_MS);
    let deleted = 0;
    try {
      for (;;) {
        if (this.#stop.signal.aborted) break;
        const batch = await this.#pruneBatch(cutoff);
        // null: another instance is deleting them.
        if (batch === null) break;
        deleted += batch;
        if (batch < PRUNE_BATCH) break;
      }
    } catch (error) {
      if (!this.#stop.signal.aborted) {
        this.#log.warn({ err: error }, 'webhook outbox could not delete old deliveries; later');
      }
    }
    this.#pruneAt = Date.now() + this.#timings.pruneEveryMs;
    if (deleted > 0) {
      this.#log.info({ deleted }, 'webhook outbox deleted deliveries finished over 30 days ago');
    }
  }

  /** One batch of the prune, in a transaction of its own; null when another instance has it. */
  async #pruneBatch(cutoff: Date): Promise<number | null> {
    const postgres = this.#db.dialect === 'postgres';
    const remove = async (db: Kysely<Database>) => {
      const oldest = db
        .selectFrom('webhookDelivery')
        .select('id')
        .where('status', 'in', ['delivered', 'failed'])
        .where('lastAttemptAt', '<', postgres ? cutoff : cutoff.toISOString())
        .limit(PRUNE_BATCH);
      const result = await db
        .deleteFrom('webhookDelivery')
        .where('id', 'in', oldest)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    };
    if (!postgres) return remove(this.#db.kysely);
    return this.#db.kysely.transaction().execute(async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${sql.lit(
        PRUNE_LOCK_CLASS,
      )}, 0) as "locked"`.execute(trx);
      if (rows[0]?.locked !== true) return null;
      return remove(trx);
    });
  }

  #reportFailure(error: unknown): void {
    if (this.#stop.signal.aborted) return;
    // Said once per outage, not once per poll.
    if (!this.#failing) this.#log.error({ err: error }, 'webhook outbox failed; retrying');
    this.#failing = true;
  }

  #kick(id: string): void {
    const running = this.#serving.get(id);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false, done: Promise.resolve() };
    this.#serving.set(id, state);
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await this.#inSlot(() => this.#serve(id));
        } while (state.again && !this.#stop.signal.aborted);
      } catch (error) {
        this.#reportFailure(error);
      } finally {
        this.#serving.delete(id);
        void this.#scheduleNext();
      }
    })();
  }

  async #inSlot(run: () => Promise<void>): Promise<void> {
    if (this.#slotsFree === 0) await new Promise<void>((r) => this.#slotWaiters.push(r));
    else this.#slotsFree -= 1;
    try {
      await run();
    } finally {
      const next = this.#slotWaiters.shift();
      if (next) next();
      else this.#slotsFree += 1;
    }
  }

  /**
   * Comes back when the next retry is due, or after the poll interval at the latest. Only
   * retries still ahead count: one due already is being made (here, or by the instance that
   * holds its endpoint), or waits for its endpoint to be switched on again.
   */
  async #scheduleNext(endpointsOn = true): Promise<void> {
    // No endpoint switched on: no delivery can be due, so only the poll is set.
    if (this.#stop.signal.aborted) return;
    let wait = this.#timings.pollMs;
    if (endpointsOn) {
      try {
        const now = new Date();
        const row = await this.#db.kysely
          .selectFrom('webhookDelivery')
          .innerJoin('webhook', 'webhook.id', 'webhookDelivery.webhookId')
          .select((eb) => eb.fn.min('webhookDelivery.nextAttemptAt').as('due'))
          .where('webhookDelivery.status', '=', 'pending')
          .where('webhook.enabled', '=', fromBool(true, this.#db.dialect))
          .where(
            'webhookDelivery.nextAttemptAt',
            '>',
            this.#db.dialect === 'postgres' ? now : now.toISOString(),
          )
          .executeTakeFirst();
        if (row?.due) wait = Math.min(wait, Math.max(0, Date.parse(toIso(row.due)) - Date.now()));
      } catch {
        // The poll comes back anyway.
      }
    }
    const at = Date.now() + wait;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.wake();
    }, wait + 5).unref();
  }

  /** One endpoint's turn: on PostgreSQL under its lock, or skipped if another instance has it. */
  async #serve(id: string): Promise<void> {
    if (this.#db.dialect === 'sqlite') return this.#deliverQueue(id, this.#db.kysely);
    // The lock and the turn's work share one connection: with the work on others, a pool the
    // locks had taken whole (DATABASE_POOL_SIZE may be 1) would leave it waiting for a
    // connection that never comes, and every request with it.
    await this.#db.kysely.connection().execute(async (conn) => {
      const key = sql`${sql.lit(WEBHOOK_LOCK_CLASS)}, ${lockKey(id)}`;
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${key}) as "locked"`.execute(conn);
      if (rows[0]?.locked !== true) return;
      try {
        await this.#deliverQueue(id, conn);
      } finally {
        await sql`select pg_advisory_unlock(${key})`.execute(conn);
      }
    });
  }

  async #deliverQueue(id: string, db: Kysely<Database>): Promise<void> {
    await this.#queueNewEvents(id, db);
    for (;;) {
      if (this.#stop.signal.aborted) return;
      const endpoint = await selectWithOwner(db)
        .select(['webhook.url', 'webhook.format', 'webhook.secret', 'webhook.enabled'])
        .where('webhook.id', '=', id)
        .executeTakeFirst();
      // A paused endpoint's waiting deliveries wait for an administrator to take it over.
      if (!endpoint || !toBool(endpoint.enabled) || !this.#ownerSpeaks(endpoint)) return;
      const next = await db
        .selectFrom('webhookDelivery')
        .selectAll()
        .where('webhookId', '=', id)
        .where('status', '=', 'pending')
        .orderBy('createdAt')
        .orderBy('eventSeq')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!next) return;
      if (next.nextAttemptAt !== null && Date.parse(toIso(next.nextAttemptAt)) > Date.now()) return;
      await this.#attempt(db, { id, ...endpoint }, next);
    }
  }

  /** Step 1: deliveries for the events after the endpoint's cursor, and the cursor moved on. */
  async #queueNewEvents(id: string, db: Kysely<Database>): Promise<void> {
    for (;;) {
      let caughtUp: boolean;
      try {
        caughtUp = await db.transaction().execute(async (trx) => {
          const hook = await selectWithOwner(trx)
            .select(['webhook.cursor', 'webhook.events', 'webhook.enabled'])
            .where('webhook.id', '=', id)
            .executeTakeFirst();
          if (!hook || !toBool(hook.enabled)) return true;
          // Paused, it hears of nothing: the cursor passes the events without a delivery.
          const speaks = this.#ownerSpeaks(hook);
          const cursor = Number(hook.cursor);
          const events = await trx
            .selectFrom('event')
            .select(['seq', 'kind'])
            .where('seq', '>', cursor)
            .orderBy('seq')
            .limit(EVENTS_PER_STEP)
            .execute();
          const last = events.at(-1);
          if (!last) return true;
          const wanted = new Set(toStringList(hook.events));
          const at = new Date().toISOString();
          const rows = events
            .filter((event) => speaks && wanted.has(event.kind))
            .map((event) => ({
              id: newRecordId(),
              webhookId: id,
              eventSeq: Number(event.seq),
              eventKind: event.kind,
              status: 'pending',
              attempts: 0,
              createdAt: at,
            }));
          for (const chunk of chunks(rows, 100)) {
            await trx.insertInto('webhookDelivery').values(chunk).execute();
          }
          // Only from where it was read: an edit that moved the cursor meanwhile (re-enabled
          // at the head) wins, and this step is read again.
          const moved = await trx
            .updateTable('webhook')
            .set({ cursor: Number(last.seq) })
            .where('id', '=', id)
            .where('cursor', '=', cursor)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) throw new CursorMoved();
          return events.length < EVENTS_PER_STEP;
        });
      } catch (error) {
        if (error instanceof CursorMoved) continue;
        throw error;
      }
      if (caughtUp) return;
    }
  }

  /** Step 2: one attempt of a delivery, and what it came to. */
  async #attempt(
    db: Kysely<Database>,
    endpoint: { id: string; url: string; format: string; secret: string },
    delivery: {
      id: string;
      eventSeq: number | string;
      attempts: number;
      createdAt: string | Date;
      firstAttemptAt: string | Date | null;
    },
  ): Promise<void> {
    const started = new Date();
    const row = await db
      .selectFrom('event')
      .selectAll()
      .where('seq', '=', Number(delivery.eventSeq))
      .executeTakeFirst();
    let result: AttemptResult;
    if (!row) {
      result = { delivered: false, responseCode: null, error: 'the event is no longer in the log' };
    } else {
      const event = presentEvent(row, row.kind as ClientEventKind);
      const timestamp = Math.floor(started.getTime() / 1000);
      const format = webhookFormatSchema.catch('json').parse(endpoint.format);
      const payload = await payloadOf(db, format, { id: delivery.id, timestamp }, event);
      const body = Buffer.from(JSON.stringify(payload));
      let secret: string | null = null;
      try {
        secret = this.#box.open(endpoint.secret, webhookSecretPlace(endpoint.id));
      } catch {
        result = {
          delivered: false,
          responseCode: null,
          error: 'the signing secret does not open with this SECRET_KEY',
        };
      }
      if (secret !== null) {
        try {
          result = await attemptDelivery({
            url: endpoint.url,
            body,
            headers: {
              'content-type': 'application/json',
              'user-agent': WEBHOOK_USER_AGENT,
              [SIGNATURE_HEADER]: signatureOf(secret, body),
              [TIMESTAMP_HEADER]: String(timestamp),
              [DELIVERY_HEADER]: delivery.id,
              [EVENT_HEADER]: event.kind,
            },
            timeoutMs: this.#timings.timeoutMs,
            allowPrivate: this.#allowPrivate,
            signal: this.#stop.signal,
          });
        } catch (error) {
          // The app is closing: nothing is recorded, the attempt is made again after the start.
          if (this.#stop.signal.aborted) return;
          throw error;
        }
      }
    }
    await this.#record(db, endpoint.id, delivery, started, result!);
  }

  async #record(
    db: Kysely<Database>,
    webhookId: string,
    delivery: {
      id: string;
      attempts: number;
      createdAt: string | Date;
      firstAttemptAt: string | Date | null;
    },
    started: Date,
    result: AttemptResult,
  ): Promise<void> {
    const now = new Date();
    const attempts = delivery.attempts + 1;
    const first = delivery.firstAttemptAt === null ? started : new Date(delivery.firstAttemptAt);
    // The window runs from when the delivery was queued, not from its first attempt: behind a
    // receiver that stays down, each later delivery would otherwise wait its turn and then have
    // a whole window of its own, one given up a day while the queue grows by one an event.
    const queued = Date.parse(toIso(delivery.createdAt));
    const common = {
      attempts,
      responseCode: result.responseCode,
      error: result.error,
      firstAttemptAt: first.toISOString(),
      lastAttemptAt: started.toISOString(),
    };
    let change;
    if (result.delivered) {
      change = {
        ...common,
        status: 'delivered',
        nextAttemptAt: null,
        deliveredAt: now.toISOString(),
      };
    } else {
      const next = now.getTime() + retryDelay(attempts, this.#timings);
      const givenUp = next > queued + this.#timings.retryWindowMs;
      change = {
        ...common,
        status: givenUp ? 'failed' : 'pending',
        nextAttemptAt: givenUp ? null : new Date(next).toISOString(),
      };
      // The id of the endpoint and of the delivery, never its URL (a Slack URL is a secret).
      this.#log[givenUp ? 'warn' : 'info'](
        { webhookId, deliveryId: delivery.id, attempts, error: result.error },
        givenUp ? 'webhook delivery failed: given up' : 'webhook delivery failed: will retry',
      );
    }
    await db
      .updateTable('webhookDelivery')
      .set(change)
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Stops the timer and the attempts in flight (they record nothing) and waits for them. */
  async close(): Promise<void> {
    this.#stop.abort(new Error('the app is closing'));
    clearTimeout(this.#timer);
    await this.#ticking;
    await this.#pruning;
    await Promise.all([...this.#serving.values()].map((s) => s.done));
  }
}
