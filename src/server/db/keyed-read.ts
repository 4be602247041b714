import DataLoader from 'dataloader';
import type pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/** The key's own column in every row a keyed read returns (matched to the keys asked). */
const KEY = 'keyedReadKey';

/**
 * A hot read of one row by its key: `select <key>, <columns> from <from> where <key> = ?`.
 * Outside a transaction it skips Kysely's executor (its promise chains, connection handling and
 * result processing cost more than the read):
 *
 * - on SQLite it goes through the quick reader (synchronous, committed data only);
 * - on PostgreSQL the keys asked for in one turn of the event loop are read in one query
 *   (`= any($1)`), sent once that turn has read every request that was ready. Under load that is
 *   one round trip for many requests instead of one each; alone, a request waits for nothing
 *   more than the end of its own turn. No answer is kept: every query starts after the requests
 *   it answers have arrived, so each sees every commit made before it arrived, as a query of
 *   its own would.
 *
 * Inside a transaction it reads there, through Kysely. The SQL texts are built once.
 */
export class KeyedRead<Row extends object> {
  readonly #select: string;
  readonly #sqlite: string;
  readonly #postgres: string;
  readonly #loaders = new WeakMap<pg.Pool, DataLoader<string, Row | undefined>>();

  constructor(parts: { key: string; columns: string; from: string }) {
    this.#select = `select ${parts.columns} from ${parts.from} where ${parts.key}`;
    this.#sqlite = `${this.#select} = ?`;
    // The key comes back too, to match each row to its key among the batch's.
    this.#postgres = `select ${parts.key} as "${KEY}", ${parts.columns} from ${parts.from} where ${parts.key} = any($1::text[])`;
  }

  /**
   * The row, synchronously where the quick reader can read it (SQLite, outside a transaction:
   * then a row shared with other callers, not to be changed), else a promise. `transaction`:
   * read there instead (it may hold writes not committed yet).
   */
  run(
    db: Db,
    key: string,
    transaction?: Kysely<Database>,
  ): Readonly<Row> | undefined | Promise<Row | undefined> {
    if (!transaction && db.quickReader) return db.quickReader().byKey<Row>(this.#sqlite, key);
    if (!transaction && db.pool) return this.#loader(db.pool).load(key);
    return this.#inTransaction(key, transaction ?? db.kysely);
  }

  async #inTransaction(key: string, db: Kysely<Database>): Promise<Row | undefined> {
    const query = sql<Row>`${sql.raw(this.#select)} = ${key}`;
    return (await query.execute(db)).rows[0];
  }

  #loader(pool: pg.Pool): DataLoader<string, Row | undefined> {
    let loader = this.#loaders.get(pool);
    if (!loader) {
      loader = new DataLoader((keys) => this.#readMany(pool, keys), {
        // Nothing is remembered between batches: a cached row could be one a colleague has
        // changed or a session that was revoked since.
        cache: false,
        // After the poll phase, which hands over every request that was ready: DataLoader's
        // default (a later promise job of the same callback) would batch one request's reads.
        batchScheduleFn: (send) => setImmediate(send),
      });
      this.#loaders.set(pool, loader);
    }
    return loader;
  }

  async #readMany(pool: pg.Pool, keys: readonly string[]): Promise<(Row | undefined)[]> {
    // PostgreSQL text cannot hold NUL, so such a key matches nothing; sent, it would fail the
    // query and with it every other request of the batch.
    const asked = keys.filter((key) => !key.includes('\0'));
    if (asked.length === 0) return keys.map(() => undefined);
    const { rows } = await pool.query<Row & { [KEY]: string }>(this.#postgres, [asked]);
    const byKey = new Map(rows.map((row) => [row[KEY], row]));
    return keys.map((key) => byKey.get(key));
  }
}
