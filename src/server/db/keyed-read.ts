import { sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * A hot read of one row by its key: `select … where <column>`, completed with `= key`. Outside a
 * transaction it skips Kysely's executor (its promise chains, connection handling and result
 * processing cost more than the read): on SQLite it goes through the quick reader (synchronous,
 * committed data only), on PostgreSQL straight to the pool. Inside a transaction it reads there,
 * through Kysely. The SQL texts are built once, not per request.
 */
export class KeyedRead<Row> {
  readonly #select: string;
  readonly #sqlite: string;
  readonly #postgres: string;

  constructor(selectUpToKeyColumn: string) {
    this.#select = selectUpToKeyColumn;
    this.#sqlite = `${selectUpToKeyColumn} = ?`;
    this.#postgres = `${selectUpToKeyColumn} = $1`;
  }

  /** `transaction`: read there instead (it may hold writes not committed yet). */
  async run(db: Db, key: string, transaction?: Kysely<Database>): Promise<Row | undefined> {
    if (!transaction && db.quickReader) return db.quickReader().one<Row>(this.#sqlite, [key]);
    if (!transaction && db.pool) {
      return (await db.pool.query<Row & object>(this.#postgres, [key])).rows[0];
    }
    const query = sql<Row>`${sql.raw(this.#select)} = ${key}`;
    return (await query.execute(transaction ?? db.kysely)).rows[0];
  }
}
