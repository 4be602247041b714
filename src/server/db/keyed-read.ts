import { sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * A hot read of one row by its key: `select … where <column>`, completed with `= key`. On
 * SQLite outside a transaction it goes through the quick reader (synchronous, committed data
 * only); on PostgreSQL, and inside a transaction, through Kysely. Both SQL texts are built once,
 * not per request.
 */
export class KeyedRead<Row> {
  readonly #select: string;
  readonly #sqlite: string;

  constructor(selectUpToKeyColumn: string) {
    this.#select = selectUpToKeyColumn;
    this.#sqlite = `${selectUpToKeyColumn} = ?`;
  }

  /** `transaction`: read there instead (it may hold writes not committed yet). */
  async run(db: Db, key: string, transaction?: Kysely<Database>): Promise<Row | undefined> {
    if (!transaction && db.quickReader) return db.quickReader().one<Row>(this.#sqlite, [key]);
    const query = sql<Row>`${sql.raw(this.#select)} = ${key}`;
    return (await query.execute(transaction ?? db.kysely)).rows[0];
  }
}
