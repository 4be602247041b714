import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { NewEvent } from '#server/realtime/event-log.ts';
import { ScheduleLock } from './schedule-lock.ts';
import type { ServerChecks } from './server-checks.ts';

/** Who a scheduled check's `server.checked` event names: no person, as the command line. */
export const SCHEDULED_CHECK_ACTOR: NewEvent['actor'] = { id: null, name: 'Scheduled check' };

/** Checks at once at most: a round of many servers opens only a few connections at a time. */
export const CHECKS_AT_ONCE = 8;

/**
 * Checks every server that has a host, every `intervalMs` (SERVER_CHECK_INTERVAL), at most
 * `CHECKS_AT_ONCE` at a time. A round still running at the next tick is not started again: the
 * tick is skipped. On PostgreSQL several instances share the servers, so a round runs only on
 * the instance holding the schedule's lock (schedule-lock.ts); on SQLite there is one instance
 * per file and no lock. `close` stops the timer, stops the checks in flight (they record
 * nothing) and waits for the round to end.
 */
export class CheckSchedule {
  readonly #db: Db;
  readonly #checks: ServerChecks;
  readonly #intervalMs: number;
  readonly #log: FastifyBaseLogger;
  readonly #lock: ScheduleLock | undefined;
  readonly #stop = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> | undefined;
  #ticks = 0;
  #rounds = 0;
  #checksStarted = 0;

  constructor(options: {
    db: Db;
    checks: ServerChecks;
    intervalMs: number;
    log: FastifyBaseLogger;
    /** PostgreSQL: where to take the lock that lets one instance run the schedule. */
    lockUrl?: string;
  }) {
    this.#db = options.db;
    this.#checks = options.checks;
    this.#intervalMs = options.intervalMs;
    this.#log = options.log;
    this.#lock =
      options.lockUrl === undefined ? undefined : new ScheduleLock(options.lockUrl, options.log);
  }

  /**
   * Ticks seen, and rounds run on them: a tick runs none while a round runs or while another
   * instance holds the lock.
   */
  get ticks(): number {
    return this.#ticks;
  }

  get rounds(): number {
    return this.#rounds;
  }

  /** Checks this instance's rounds have started. */
  get checksStarted(): number {
    return this.#checksStarted;
  }

  /** True while a round runs (or waits for the lock). */
  get running(): boolean {
    return this.#round !== undefined;
  }

  /** True while this instance holds the schedule's lock (always on SQLite). */
  get leading(): boolean {
    return this.#lock?.held ?? true;
  }

  start(): void {
    this.#timer = setInterval(() => void this.#tick(), this.#intervalMs);
    // The timer alone must not keep a process alive (a command that built the app, a test).
    this.#timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#stop.abort(new Error('the app is closing'));
    // Closing the lock's connection at once also ends a round waiting on it.
    await Promise.all([this.#round, this.#lock?.release()]);
  }

  async #tick(): Promise<void> {
    this.#ticks += 1;
    if (this.#round || this.#stop.signal.aborted) return;
    const round = this.#maybeRun().finally(() => {
      this.#round = undefined;
    });
    this.#round = round;
    await round;
  }

  async #maybeRun(): Promise<void> {
    if (this.#lock && !(await this.#lock.acquire())) return;
    if (this.#stop.signal.aborted) return;
    this.#rounds += 1;
    try {
      await this.#runRound();
    } catch (error) {
      if (!this.#stop.signal.aborted) this.#log.error({ err: error }, 'scheduled checks failed');
    }
  }

  async #runRound(): Promise<void> {
    const servers = await this.#db.kysely
      .selectFrom('server')
      .select('id')
      .where('host', '!=', '')
      .orderBy('id')
      .execute();
    const queue = servers.map((server) => server.id);
    const signal = this.#stop.signal;
    // A round goes on only while this instance holds the lock. Its connection is asked before
    // each check (answered, or failed within the connection's query timeout), so a connection
    // that ended or went silent is noticed: the servers not yet checked are left to the
    // instance that takes the lock next instead of being checked beside it.
    const mayGoOn = async () =>
      !signal.aborted && (this.#lock === undefined || (await this.#lock.acquire()));
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined && (await mayGoOn()); id = queue.shift()) {
        this.#checksStarted += 1;
        try {
          await this.#checks.check(id, SCHEDULED_CHECK_ACTOR, { signal, eventOnlyOnChange: true });
        } catch (error) {
          // One server's failure (its credential no longer opens, say) is not the round's.
          if (!signal.aborted) this.#log.warn({ err: error, serverId: id }, 'check failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, queue.length) }, worker));
  }
}
