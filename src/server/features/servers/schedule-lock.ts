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
  /**
   * The connection holding the lock, always the open `#client`: the lock is that session's, so
   * a new connection never holds it until it takes the lock itself.
   */
  #holder: pg.Client | null = null;
  /** The question to the database under way, which callers meanwhile wait on too. */
  #asking: Promise<boolean> | undefined;

  constructor(url: string, log: FastifyBaseLogger) {
    this.#url = url;
    this.#log = log;
  }

  get held(): boolean {
    return this.#holder !== null;
  }

  /**
   * True when this instance holds the lock, now or already. Callers at the same time (a round's
   * checks each ask before they start) share one question: a connection answers one query at a
   * time, and a second connection would be a second session asking for the lock.
   */
  acquire(): Promise<boolean> {
    this.#asking ??= this.#ask().finally(() => {
      this.#asking = undefined;
    });
    return this.#asking;
  }

  async #ask(): Promise<boolean> {
    const holder = this.#holder;
    try {
      if (holder) {
        await holder.query('select 1');
        return this.#holder === holder;
      }
      const client = this.#client ?? (await this.#connect());
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1) as locked',
        [CHECK_SCHEDULE_LOCK],
      );
      // The answer and the end of its connection can arrive together, the end handled first:
      // the lock went with that session.
      const locked = rows[0]?.locked === true && this.#client === client;
      if (locked && this.#holder === null) {
        this.#log.info('this instance runs the scheduled server checks');
        this.#holder = client;
      }
      return locked;
    } catch (error) {
      if (this.#holder) this.#log.warn({ err: error }, 'lost the scheduled checks lock');
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
      if (this.#holder === client) this.#log.warn({ err: error }, 'lost the scheduled checks lock');
      this.#holder = null;
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
    this.#holder = null;
    await client?.end().catch(() => undefined);
  }
}
