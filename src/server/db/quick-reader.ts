import type SQLite from 'better-sqlite3';
import { openSqliteReadOnly } from './sqlite-read-only.ts';

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
 *
 * Rows read are kept until the database changes: a snapshot whose `data_version` is the one
 * they were read under holds the very same rows (SQLite changes it for every commit of
 * another connection, and every write, ours included, is another connection's to this
 * read-only one). So a session or client asked for again is answered without reading, and
 * exactly as a read would answer; the first snapshot after any commit starts afresh. A kept
 * row is shared by every caller that asks for it: it must not be changed.
 */
const SNAPSHOT_MS = 5;

/** Rows kept for one query text; past this many they are dropped and read again. */
const KEPT_LIMIT = 10_000;

export class QuickReader {
  readonly #sqlite: SQLite.Database;
  /** Prepared once per query text: the texts are the few constant ones of keyed-read.ts. */
  readonly #statements = new Map<string, SQLite.Statement>();
  readonly #begin: SQLite.Statement;
  readonly #commit: SQLite.Statement;
  readonly #dataVersion: SQLite.Statement;
  /** Query text → key → row (or undefined: no such row), as of #version. */
  readonly #kept = new Map<string, Map<string, unknown>>();
  #version: unknown;
  #ending = false;
  /** Whether a snapshot is open (kept here: asking the connection is a native call per read). */
  #open = false;
  #takenAt = 0;

  constructor(file: string) {
    this.#sqlite = openSqliteReadOnly(file);
    this.#begin = this.#sqlite.prepare('begin');
    this.#commit = this.#sqlite.prepare('commit');
    this.#dataVersion = this.#sqlite.prepare('pragma data_version').pluck();
  }

  /**
   * The row of `query` (SQLite text with one `?`, a read by a unique key) for `key`, or
   * undefined. The same object for as long as the database has not changed: read only.
   */
  byKey<T>(query: string, key: string): Readonly<T> | undefined {
    if (this.#open && performance.now() - this.#takenAt > SNAPSHOT_MS) this.endSnapshot();
    if (!this.#open) this.#takeSnapshot();
    let rows = this.#kept.get(query);
    if (!rows) this.#kept.set(query, (rows = new Map()));
    else if (rows.has(key)) return rows.get(key) as T | undefined;
    // `get` steps once: `all` would step again to learn that a read by key has no second row.
    const row = this.#statement(query).get(key) as T | undefined;
    if (rows.size >= KEPT_LIMIT) rows.clear();
    rows.set(key, row);
    return row;
  }

  #takeSnapshot(): void {
    this.#begin.run();
    // Read inside the transaction, this also starts its snapshot: the version is the snapshot's.
    const version: unknown = this.#dataVersion.get();
    if (version !== this.#version) {
      this.#kept.clear();
      this.#version = version;
    }
    this.#open = true;
    this.#takenAt = performance.now();
    if (!this.#ending) {
      this.#ending = true;
      setImmediate(this.#endOfTurn);
    }
  }

  #statement(query: string): SQLite.Statement {
    let statement = this.#statements.get(query);
    if (!statement) {
      statement = this.#sqlite.prepare(query);
      this.#statements.set(query, statement);
    }
    return statement;
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
