import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * One write: its rows, inside the batch's transaction. What it `record`s (its events) is
 * written by the batch after every write's rows, and only if the write succeeded. It may run
 * twice (after another write of its batch failed), so it does nothing outside `trx`.
 */
export type Work<T, R> = (
  trx: Transaction<Database>,
  at: string,
  record: (r: R) => void,
) => Promise<T>;

export interface GroupCommitHooks<R> {
  /** Writes what the batch's successful writes recorded, in their order, before the commit. */
  beforeCommit(trx: Transaction<Database>, records: R[]): Promise<void>;
  /** After a commit that kept at least one write. */
  onCommitted(): void;
}

interface Pending<R> {
  work: Work<unknown, R>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome<R> = { ok: true; value: unknown; records: R[] } | { ok: false; error: unknown };

/** Writes per transaction at most: bounds how long one write can wait behind others. */
const MAX_BATCH = 64;

/**
 * Group commit. Each commit is flushed to disk before it is answered (SQLite's synchronous
 * FULL, PostgreSQL's synchronous_commit), and that flush, not the work, bounds how many
 * writes a second can be made: on PostgreSQL every commit that writes events also holds the
 * event log's lock through its flush (realtime/event-log.ts). So the writes that arrive while
 * one transaction commits wait for the next, and go into it together: one flush for all of
 * them. Nothing is answered before its transaction has committed, exactly as with one
 * transaction per write.
 *
 * One write that fails (a conflict, a bad row) is rolled back alone and its caller gets its
 * error, while the others commit (`#commitTogether` says how). What the writes record is
 * written last, in one go (`beforeCommit`): the event log's lock is then taken after every row
 * lock of the batch, as a single write takes it. If that or the commit fails, every write of
 * the batch gets the error and none of them is answered as done.
 */
export class GroupCommit<R> {
  readonly #db: Kysely<Database>;
  readonly #hooks: GroupCommitHooks<R>;
  #queue: Pending<R>[] = [];
  #running = false;

  constructor(db: Kysely<Database>, hooks: GroupCommitHooks<R>) {
    this.#db = db;
    this.#hooks = hooks;
  }

  run<T>(work: Work<T, R>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running) {
        this.#running = true;
        // Not before the requests that arrived with this one have been read, so that they join
        // the first transaction instead of each waiting for one of their own.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        let outcomes: Outcome<R>[];
        try {
          outcomes = await this.#commitTogether(batch);
        } catch (error) {
          for (const item of batch) item.reject(error);
          continue;
        }
        if (outcomes.some((o) => o.ok)) this.#hooks.onCommitted();
        batch.forEach((item, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) item.resolve(outcome.value);
          else item.reject(outcome.error);
        });
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * The batch in one transaction. Writes rarely fail, and a savepoint costs two round trips a
   * write on PostgreSQL, so the batch first runs without them; only when one of its writes
   * fails is that transaction rolled back and the batch run again, each write in a savepoint of
   * its own. A write is work on the database alone, so running it again is safe.
   */
  async #commitTogether(batch: Pending<R>[]): Promise<Outcome<R>[]> {
    try {
      return await this.#transaction(batch, (trx, work) => this.#bare(trx, work));
    } catch (error) {
      if (!(error instanceof WriteFailed)) throw error;
      // Alone in its transaction, a write's failure is its own answer: nothing was committed.
      if (batch.length === 1) return [{ ok: false, error: error.cause }];
      return this.#transaction(batch, (trx, work) => this.#isolated(trx, work));
    }
  }

  async #transaction(
    batch: Pending<R>[],
    one: (trx: Transaction<Database>, work: Work<unknown, R>) => Promise<Outcome<R>>,
  ): Promise<Outcome<R>[]> {
    return this.#db.transaction().execute(async (trx) => {
      const done: Outcome<R>[] = [];
      for (const item of batch) done.push(await one(trx, item.work));
      await this.#hooks.beforeCommit(
        trx,
        done.flatMap((o) => (o.ok ? o.records : [])),
      );
      return done;
    });
  }

  /** The write as it is; its failure aborts the transaction (as a `WriteFailed`). */
  async #bare(trx: Transaction<Database>, work: Work<unknown, R>): Promise<Outcome<R>> {
    try {
      return await run(trx, work);
    } catch (error) {
      throw new WriteFailed(error);
    }
  }

  /** The write in a savepoint: if it fails, its rows alone are rolled back. */
  async #isolated(trx: Transaction<Database>, work: Work<unknown, R>): Promise<Outcome<R>> {
    await sql`savepoint one_write`.execute(trx);
    try {
      const outcome = await run(trx, work);
      await sql`release one_write`.execute(trx);
      return outcome;
    } catch (error) {
      await sql`rollback to one_write`.execute(trx);
      await sql`release one_write`.execute(trx);
      return { ok: false, error };
    }
  }
}

/** Runs one write, collecting what it records. */
async function run<R>(trx: Transaction<Database>, work: Work<unknown, R>): Promise<Outcome<R>> {
  const records: R[] = [];
  const value = await work(trx, new Date().toISOString(), (r) => records.push(r));
  return { ok: true, value, records };
}

/** A write of the batch failed outside a savepoint: the transaction must not commit. */
class WriteFailed extends Error {
  constructor(cause: unknown) {
    super('a write of the batch failed', { cause });
  }
}
