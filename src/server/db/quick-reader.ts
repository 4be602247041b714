import type SQLite from 'better-sqlite3';
import { openSqliteReadOnly } from './sqlite-read-only.ts';
import { withStatementCache } from './statement-cache.ts';
import type { SqliteDatabase } from 'kysely';

/**
 * Synchronous reads on SQLite, for the two reads nearly every request makes (its session, and
 * GET /api/clients/:id). Through Kysely each cost about 35–40 µs of promise chains, connection
 * mutex and result handling around 6–8 µs inside SQLite (docs/performance.md).
 *
 * A second connection, read-only: the writer's connection may be inside a group-commit
 * transaction whose writes are not committed yet, and a read there would see them. In WAL mode
 * this one reads the last commit, never waits for the writer, and every write is answered only
 * after its commit, so a client that wrote and then reads sees its write.
 *
 * Reads share one snapshot (a read transaction) until the event loop's turn ends, or for
 * SNAPSHOT_MS at most: taking and releasing SQLite's read lock cost about 5 µs a read, the read
 * itself 1 µs. The writer ends the snapshot before each statement that writes or commits
 * (`endSnapshot`, called through the writer's statement cache), so a read after a commit of
 * this process always sees it, and no snapshot of ours stands in the way of the checkpoint
 * that runs at the commit. A commit by another process (a CLI command such as `user disable`)
 * is seen by every request that arrives after it: the turn's requests were read from their
 * sockets before its snapshot was taken. (When over a thousand sockets are ready at once,
 * libuv polls again within the same turn; the time limit bounds that case.)
 */
const SNAPSHOT_MS = 5;

export class QuickReader {
  readonly #sqlite: SQLite.Database;
  readonly #db: SqliteDatabase;
  readonly #begin: SQLite.Statement;
  readonly #commit: SQLite.Statement;
  #ending = false;
  /** Whether a snapshot is open (kept here: asking the connection is a native call per read). */
  #open = false;
  #takenAt = 0;

  constructor(file: string) {
    this.#sqlite = openSqliteReadOnly(file);
    this.#db = withStatementCache(this.#sqlite);
    this.#begin = this.#sqlite.prepare('begin');
    this.#commit = this.#sqlite.prepare('commit');
  }

  /** The first row of `query` (SQLite text with `?` placeholders; a read by key), or undefined. */
  one<T>(query: string, params: readonly unknown[]): T | undefined {
    if (this.#open && performance.now() - this.#takenAt > SNAPSHOT_MS) this.endSnapshot();
    if (!this.#open) {
      this.#begin.run();
      this.#open = true;
      this.#takenAt = performance.now();
      if (!this.#ending) {
        this.#ending = true;
        setImmediate(this.#endOfTurn);
      }
    }
    return this.#db.prepare(query).all(params)[0] as T | undefined;
  }

  /** The next read takes a new snapshot: it will see every commit made before it. */
  endSnapshot(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#commit.run();
  }

  readonly #endOfTurn = () => {
    this.#ending = false;
    this.endSnapshot();
  };

  close(): void {
    this.endSnapshot();
    this.#sqlite.close();
  }
}
