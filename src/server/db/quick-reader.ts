import type { SqliteDatabase } from 'kysely';
import { openSqliteReadOnly } from './sqlite-read-only.ts';
import { withStatementCache } from './statement-cache.ts';

/**
 * Synchronous reads on SQLite, for the two reads nearly every request makes (its session, and
 * GET /api/clients/:id). Through Kysely each cost about 35–40 µs of promise chains, connection
 * mutex and result handling around 6–8 µs inside SQLite (docs/performance.md).
 *
 * A second connection, read-only: the writer's connection may be inside a group-commit
 * transaction whose writes are not committed yet, and a read there would see them. In WAL mode
 * this one reads the last commit, never waits for the writer, and every write is answered only
 * after its commit, so a client that wrote and then reads sees its write.
 */
export class QuickReader {
  readonly #db: SqliteDatabase;

  constructor(file: string) {
    this.#db = withStatementCache(openSqliteReadOnly(file));
  }

  /** The first row of `query` (SQLite text with `?` placeholders; a read by key), or undefined. */
  one<T>(query: string, params: readonly unknown[]): T | undefined {
    return this.#db.prepare(query).all(params)[0] as T | undefined;
  }

  close(): void {
    this.#db.close();
  }
}
