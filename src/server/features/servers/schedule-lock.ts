import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { CONNECT_TIMEOUT_MS } from '#server/db/database.ts';

/** Key of the session-level advisory lock held by the instance that runs scheduled checks. */
export const CHECK_SCHEDULE_LOCK = 4_350_262_852;

/**
 * Which of several instances on one PostgreSQL database runs the check schedule: the one whose
 * dedicated connection holds a session-level advisory lock. The lock lives as long as that
 * connection, so it is kept open (as pg-wakeup.ts keeps its LISTEN connection); when it drops,
 * the lock is gone with it and another instance takes it at its next tick. The holder asks
 * its connection at every tick whether it is still there before running a round.
 */
export class ScheduleLock {
  readonly #url: string;
  readonly #log: FastifyBaseLogger;
  #client: pg.Client | null = null;
  #held = false;

  constructor(url: string, log: FastifyBaseLogger) {
    this.#url = url;
    this.#log = log;
  }

  get held(): boolean {
    return this.#held;
  }

  /** True when this instance holds the lock, now or already. */
  async acquire(): Promise<boolean> {
    try {
      const client = this.#client ?? (await this.#connect());
      if (this.#held) {
        await client.query('select 1');
        return true;
      }
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1) as locked',
        [CHECK_SCHEDULE_LOCK],
      );
      const locked = rows[0]?.locked === true;
      if (locked) this.#log.info('this instance runs the scheduled server checks');
      this.#held = locked;
      return locked;
    } catch (error) {
      if (this.#held) this.#log.warn({ err: error }, 'lost the scheduled checks lock');
      await this.release();
      return false;
    }
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.#url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // A connection that went silent fails the tick instead of holding the schedule up.
      query_timeout: CONNECT_TIMEOUT_MS,
      application_name: 'clients-manager-schedule',
    });
    const lost = (error?: unknown) => {
      if (this.#client !== client) return;
      this.#client = null;
      if (this.#held) this.#log.warn({ err: error }, 'lost the scheduled checks lock');
      this.#held = false;
      client.end().catch(() => undefined);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.#client = client;
    try {
      await client.connect();
    } catch (error) {
      lost();
      throw error;
    }
    return client;
  }

  /** Closes the connection, which gives the lock up (however many times it was taken). */
  async release(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    this.#held = false;
    await client?.end().catch(() => undefined);
  }
}
