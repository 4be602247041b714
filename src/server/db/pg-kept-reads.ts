import type pg from 'pg';
import type { SyncOrPromise } from './sync-or-promise.ts';

/** The key's own column in every row a batched read returns (matched to the keys asked). */
export const KEY_COLUMN = 'keptReadKey';
/** The snapshot's column: the statement's own `pg_current_snapshot()`, as text. */
export const SNAPSHOT_COLUMN = 'keptReadSnapshot';

/** Rows kept for one query text; past this many they are dropped and read again. */
const KEPT_LIMIT = 10_000;

/**
 * Turns of the event loop a batch may wait beyond its first while each of them adds keys to it.
 * A turn with an immediate pending does not block for I/O, so waiting only takes in requests
 * that have already arrived: under load one check answers more of them (fewer round trips, each
 * a wake-up of PostgreSQL and of this process; docs/performance.md), and a lone request waits
 * one turn that finds nothing. The bound keeps a steady stream from holding a batch back.
 */
const MAX_EXTRA_TURNS = 4;

/** No kept row vouched for (distinct from a kept "no such row", which is undefined). */
const NOT_VOUCHED = Symbol('not vouched');

interface Asked {
  query: string;
  key: string;
  resolve: (row: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * PostgreSQL's keyed reads (`keyed-read.ts`), batched per turn of the event loop and kept until
 * something commits.
 *
 * The keys asked for in one turn are answered together, once that turn has read every request
 * that was ready (`setImmediate`), and the batch takes in the keys of the turns after it while
 * each of them adds some (up to MAX_EXTRA_TURNS): each query is sent after the requests it
 * answers arrived, so it sees every commit made before they did. A query is one statement:
 * its rows and its own `pg_current_snapshot()`. That snapshot (the oldest transaction still
 * running, the next one to come, those in between still running) is the same text until some
 * transaction commits or aborts, anywhere in the cluster, and never comes back once it has
 * changed. So rows read under
 * a snapshot are exactly what a read would return while `pg_current_snapshot()` still says the
 * same: a turn whose keys were all read before asks only for the snapshot (one tiny round trip)
 * and answers from the kept rows when it has not changed, and reads again when it has. Another
 * instance's commit, or a CLI command's, is seen by the next request as it was: nothing is
 * answered from memory without a check sent after the request arrived.
 *
 * A request's later reads need no check of their own: its first (the session) was answered by
 * a batch started after it arrived, and that batch's snapshot vouches for every row kept under
 * it. So a read that says when its request arrived (`turn` at that moment) is answered at once,
 * without a round trip, while the latest batch that started after that saw the kept rows'
 * snapshot.
 *
 * Kept rows are shared by every request they answer: they must not be changed.
 */
export class PgKeptReads {
  readonly #pool: pg.Pool;
  /** Query text → key → row (undefined: no such row), every one read under #snapshot. */
  readonly #kept = new Map<string, Map<string, unknown>>();
  #snapshot: string | undefined;
  #asked: Asked[] = [];
  /** Batches started so far: a request stamped with this number arrived before the next one. */
  #started = 0;
  /** The latest batch that saw one snapshot only, and which. */
  #vouched: { batch: number; snapshot: string } | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /**
   * The row of `query` for `key`: `query` returns, for the keys in `$1` (a text array), a row per
   * key found with the key in KEY_COLUMN, and at least one row with the statement's snapshot in
   * SNAPSHOT_COLUMN (a row without a key when none was found).
   */
  load<Row>(query: string, key: string, arrivedAt?: number): SyncOrPromise<Row | undefined> {
    if (arrivedAt !== undefined) {
      const row = this.#vouchedRow(query, key, arrivedAt);
      if (row !== NOT_VOUCHED) return row as Row | undefined;
    }
    return new Promise((resolve, reject) => {
      if (this.#asked.length === 0) this.#answerWhenQuiet(0, 0);
      this.#asked.push({ query, key, resolve: resolve as (row: unknown) => void, reject });
    });
  }

  /** Answers the batch after a turn that added nothing to it, or after MAX_EXTRA_TURNS more. */
  #answerWhenQuiet(extraTurns: number, askedBefore: number): void {
    setImmediate(() => {
      const asked = this.#asked.length;
      if (extraTurns < MAX_EXTRA_TURNS && asked > askedBefore) {
        this.#answerWhenQuiet(extraTurns + 1, asked);
      } else {
        void this.#answer();
      }
    });
  }

  /** What a request stamped now will be able to say of when it arrived. */
  get turn(): number {
    return this.#started;
  }

  #vouchedRow(query: string, key: string, arrivedAt: number): unknown {
    const vouched = this.#vouched;
    if (!vouched || vouched.batch < arrivedAt || vouched.snapshot !== this.#snapshot) {
      return NOT_VOUCHED;
    }
    const rows = this.#kept.get(query);
    return rows?.has(key) ? rows.get(key) : NOT_VOUCHED;
  }

  async #answer(): Promise<void> {
    const asked = this.#asked;
    this.#asked = [];
    const batch = this.#started++;
    const seen = new Set<string>();
    try {
      const answers = await this.#rows(asked, seen);
      // One snapshot seen, and still the kept rows': it vouches for them to every request that
      // arrived before this batch started.
      const [snapshot] = seen;
      if (seen.size === 1 && snapshot !== undefined && snapshot === this.#snapshot) {
        if (!this.#vouched || this.#vouched.batch < batch) this.#vouched = { batch, snapshot };
      }
      for (const { query, key, resolve } of asked) resolve(answers.get(query)?.get(key));
    } catch (error) {
      for (const { reject } of asked) reject(error);
    }
  }

  /** The rows for what was asked, by query text and key. */
  async #rows(
    asked: readonly Asked[],
    seen: Set<string>,
  ): Promise<Map<string, Map<string, unknown>>> {
    const answers = new Map<string, Map<string, unknown>>();
    // Taken before the check is awaited: meanwhile another turn's read may replace them.
    const snapshot = this.#snapshot;
    const kept = snapshot === undefined ? undefined : this.#keptRows(asked);
    if (kept) {
      const current = await this.#currentSnapshot();
      if (current === snapshot) {
        seen.add(current);
        asked.forEach(({ query, key }, i) => answerWith(answers, query, key, kept[i]));
        return answers;
      }
    }
    const missing = new Map<string, Set<string>>();
    for (const { query, key } of asked) {
      // PostgreSQL text cannot hold NUL, so such a key matches nothing; sent, it would fail the
      // query and with it every other request of the batch.
      if (key.includes('\0')) answerWith(answers, query, key, undefined);
      else (missing.get(query) ?? missing.set(query, new Set()).get(query)!).add(key);
    }
    await Promise.all(
      [...missing].map(async ([query, keys]) => {
        const read = await this.#read(query, [...keys]);
        seen.add(read.snapshot);
        for (const key of keys) answerWith(answers, query, key, read.rows.get(key));
      }),
    );
    return answers;
  }

  /** The kept row of each key asked, in order; undefined when one of them is not kept. */
  #keptRows(asked: readonly Asked[]): unknown[] | undefined {
    const rows: unknown[] = [];
    for (const { query, key } of asked) {
      const kept = this.#kept.get(query);
      if (!kept?.has(key)) return undefined;
      rows.push(kept.get(key));
    }
    return rows;
  }

  async #currentSnapshot(): Promise<string> {
    const { rows } = await this.#pool.query<{ [SNAPSHOT_COLUMN]: string }>(
      `select pg_current_snapshot()::text as "${SNAPSHOT_COLUMN}"`,
    );
    return rows[0]![SNAPSHOT_COLUMN];
  }

  /** Reads `keys` by `query`, and keeps what it found (and did not) under the read's snapshot. */
  async #read(
    query: string,
    keys: string[],
  ): Promise<{ snapshot: string; rows: Map<string, unknown> }> {
    const { rows } = await this.#pool.query<Record<string, unknown>>(query, [keys]);
    const snapshot = rows[0]![SNAPSHOT_COLUMN] as string;
    const found = new Map<string, unknown>();
    for (const row of rows) {
      const key = row[KEY_COLUMN];
      if (typeof key === 'string') found.set(key, row);
    }
    // Rows of another snapshot than the kept ones': the kept are dropped (a later snapshot has
    // seen a commit; an earlier one, from a read that was slower to come back, is dropped next).
    if (snapshot !== this.#snapshot) {
      this.#kept.clear();
      this.#snapshot = snapshot;
    }
    let kept = this.#kept.get(query);
    if (!kept) this.#kept.set(query, (kept = new Map()));
    if (kept.size + keys.length > KEPT_LIMIT) kept.clear();
    for (const key of keys) kept.set(key, found.get(key));
    return { snapshot, rows: found };
  }
}

function answerWith(
  answers: Map<string, Map<string, unknown>>,
  query: string,
  key: string,
  row: unknown,
): void {
  (answers.get(query) ?? answers.set(query, new Map()).get(query)!).set(key, row);
}
