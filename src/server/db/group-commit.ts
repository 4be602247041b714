import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Work<T> = (trx: Transaction<Database>, at: string) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Writes per transaction at most: bounds how long readers wait for the connection. */
const MAX_BATCH = 64;

/**
 * Group commit for SQLite. Each commit is flushed to disk before it is answered (synchronous
 * FULL), and that flush, not the work, bounds how many writes a second one writer can make.
 * So the writes that arrive while one transaction commits wait for the next, and go into it
 * together: one flush for all of them. Nothing is answered before its transaction has
 * committed, exactly as with one transaction per write.
 *
 * Each write runs inside its own savepoint: one that fails (a conflict, a bad row) is rolled
 * back alone and its caller gets its error, while the others commit. If the commit itself
 * fails, every write of the batch gets that error and none of them is answered as done.
 */
export class GroupCommit {
  readonly #db: Kysely<Database>;
  readonly #onCommitted: () => void;
  #queue: Pending[] = [];
  #running = false;

  constructor(db: Kysely<Database>, onCommitted: () => void) {
    this.#db = db;
    this.#onCommitted = onCommitted;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running) {
        this.#running = true;
        // Not before the requests that arrived with this one have been read: each of them gets
        // as far as here without waiting on I/O (SQLite answers synchronously), so they all
        // join the first transaction instead of each taking one of their own.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        let outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[];
        try {
          outcomes = await this.#db.transaction().execute(async (trx) => {
            const done: typeof outcomes = [];
            for (const item of batch) {
              await sql`savepoint one_write`.execute(trx);
              try {
                const value = await item.work(trx, new Date().toISOString());
                await sql`release one_write`.execute(trx);
                done.push({ ok: true, value });
              } catch (error) {
                await sql`rollback to one_write`.execute(trx);
                await sql`release one_write`.execute(trx);
                done.push({ ok: false, error });
              }
            }
            return done;
          });
        } catch (error) {
          for (const item of batch) item.reject(error);
          continue;
        }
        if (outcomes.some((o) => o.ok)) this.#onCommitted();
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
}
