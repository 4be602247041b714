import type pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { KEY_COLUMN, PgKeptReads, SNAPSHOT_COLUMN } from './pg-kept-reads.ts';
import type { SyncOrPromise } from './sync-or-promise.ts';

/** One keeper per pool, shared by every keyed read: one snapshot check serves them all. */
const keepers = new WeakMap<pg.Pool, PgKeptReads>();

/**
 * A hot read of one row by its key: `select <columns> from <from> where <key> = ?`.
 * Outside a transaction it skips Kysely's executor (its promise chains, connection handling and
 * result processing cost more than the read):
 *
 * - on SQLite it goes through the quick reader (synchronous, committed data only);
 * - on PostgreSQL the keys asked for in one turn of the event loop are read in one query
 *   (`= any($1)`), sent once that turn has read every request that was ready (and the turns
 *   after it, while they bring more), and kept until something commits (`pg-kept-reads.ts`).
 *   Under load that is one round trip for many requests instead of one each; alone, a request
 *   waits for nothing more than its own turn and one that finds nothing new.
 *   Every answer comes after a query sent after its request arrived, so it reflects every
 *   commit made before then, as a query of its own would.
 *
 * Inside a transaction it reads there, through Kysely. The SQL texts are built once.
 */
export class KeyedRead<Row extends object> {
  readonly #select: string;
  readonly #sqlite: string;
  readonly #postgres: string;

  constructor(parts: { key: string; columns: string; from: string }) {
    this.#select = `select ${parts.columns} from ${parts.from} where ${parts.key}`;
    this.#sqlite = `${this.#select} = ?`;
    // The key comes back too, to match each row to its key among the batch's, and the
    // statement's snapshot, which says until when the rows may be kept.
    this.#postgres = `select "s"."${SNAPSHOT_COLUMN}", "r".* from (select pg_current_snapshot()::text as "${SNAPSHOT_COLUMN}") "s" left join (select ${parts.key} as "${KEY_COLUMN}", ${parts.columns} from ${parts.from} where ${parts.key} = any($1::text[])) "r" on true`;
  }

  /**
   * The row, synchronously where the quick reader can read it (SQLite, outside a transaction:
   * then a row shared with other callers, not to be changed), else a promise. `transaction`:
   * read there instead (it may hold writes not committed yet). `arrivedAt`: the request's
   * `readTurn` (PostgreSQL: a kept row vouched for since then is answered at once).
   */
  run(
    db: Db,
    key: string,
    transaction?: Kysely<Database>,
    arrivedAt?: number,
  ): SyncOrPromise<Readonly<Row> | undefined> {
    if (!transaction && db.quickReader) return db.quickReader().byKey<Row>(this.#sqlite, key);
    if (!transaction && db.pool) return keeperOf(db.pool).load<Row>(this.#postgres, key, arrivedAt);
    return this.#inTransaction(key, transaction ?? db.kysely);
  }

  async #inTransaction(key: string, db: Kysely<Database>): Promise<Row | undefined> {
    const query = sql<Row>`${sql.raw(this.#select)} = ${key}`;
    return (await query.execute(db)).rows[0];
  }
}

/**
 * Where the keyed reads stand as a request arrives, for its later reads (`run`'s `arrivedAt`);
 * undefined on SQLite, whose reads need none.
 */
export function readTurn(db: Db): number | undefined {
  return db.pool ? keeperOf(db.pool).turn : undefined;
}

function keeperOf(pool: pg.Pool): PgKeptReads {
  let keeper = keepers.get(pool);
  if (!keeper) keepers.set(pool, (keeper = new PgKeptReads(pool)));
  return keeper;
}
