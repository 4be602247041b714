import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { CONNECT_TIMEOUT_MS, LISTEN_APPLICATION_NAME } from '#server/db/database.ts';
import { EVENT_CHANNEL } from './event-log.ts';

const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5000;

/**
 * Cross-instance wake-up on PostgreSQL. One dedicated connection per instance LISTENs on the
 * event channel; every notification (queued by appendEvent, delivered by PostgreSQL at commit)
 * calls `wake`, and the hub then reads the event log itself by sequence number. A notification
 * carries nothing the hub relies on, so losing one costs latency, never an event: the hub's
 * poll reads the log anyway.
 *
 * When the connection drops (the database restarts, the network breaks) it reconnects with
 * backoff, and wakes the hub each time it listens again: whatever was notified meanwhile was
 * not heard.
 */
export class PgWakeup {
  readonly #url: string;
  readonly #wake: () => void;
  readonly #log: FastifyBaseLogger;
  #client: pg.Client | null = null;
  #closed = false;
  #down = false;
  #retryMs = RETRY_FIRST_MS;
  #timer: NodeJS.Timeout | undefined;

  constructor(url: string, wake: () => void, log: FastifyBaseLogger) {
    this.#url = url;
    this.#wake = wake;
    this.#log = log;
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.#client !== null;
  }

  /** Connects and listens; a failure is retried in the background, not thrown. */
  start(): Promise<void> {
    return this.#connect();
  }

  async #connect(): Promise<void> {
    this.#timer = undefined;
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: LISTEN_APPLICATION_NAME,
    });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = null;
      client.end().catch(() => undefined);
      if (this.#closed) return;
      if (!this.#down) {
        this.#log.warn({ err: error }, 'lost the PostgreSQL LISTEN connection; reconnecting');
      }
      this.#down = true;
      this.#timer = setTimeout(() => void this.#connect(), this.#retryMs);
      this.#timer.unref();
      this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', () => this.#wake());
    try {
      await client.connect();
      await client.query(`listen ${EVENT_CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (this.#closed || lost) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#retryMs = RETRY_FIRST_MS;
    if (this.#down) this.#log.info('listening for events of other instances again');
    this.#down = false;
    this.#wake();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }
}
