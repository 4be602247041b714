import type { FastifyBaseLogger } from 'fastify';
import { RUN_LOG_CAP_BYTES, RUN_LOG_CAP_LINES, type RunLogStream } from '#shared/apps.ts';
import type { Db } from '#server/db/database.ts';
import { fromBool } from '#server/db/codec.ts';

/** Rows per insert: well under SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_INSERT = 500;

/** What the log says where it stops keeping the output: at its size, or at its lines. */
const cutLine = (limit: string) =>
  `The log was cut here at ${limit}: the rest of the output is not stored (the command keeps running).\n`;
export const LOG_CUT_LINE = cutLine(`${RUN_LOG_CAP_BYTES / 1024 / 1024} MB`);
export const LOG_CUT_LINES_LINE = cutLine(`${RUN_LOG_CAP_LINES.toLocaleString('en')} lines`);

interface Piece {
  runId: string;
  seq: number;
  stream: RunLogStream;
  text: string;
  at: string;
}

/**
 * Writes one run's log, already masked, to `runLog` in order, numbering its pieces from 1.
 * Pieces written while an insert is in flight wait and go in the next one: a fast command costs
 * one insert per round trip, not one per line, and no timer is needed. The command's output is
 * kept up to RUN_LOG_CAP_BYTES and RUN_LOG_CAP_LINES pieces; past either one system line says
 * so and the rest is dropped (the tool's own lines are always kept). `onWritten` runs after each insert commits.
 */
export class RunLogWriter {
  readonly #db: Db;
  readonly #runId: string;
  readonly #log: FastifyBaseLogger;
  readonly #onWritten: () => void;
  readonly #queue: Piece[] = [];
  #seq: number;
  #outputBytes = 0;
  #outputPieces = 0;
  #storedBytes = 0;
  #truncated = false;
  #draining: Promise<void> | null = null;

  constructor(
    db: Db,
    runId: string,
    options: { log: FastifyBaseLogger; onWritten: () => void; lastSeq?: number },
  ) {
    this.#db = db;
    this.#runId = runId;
    this.#log = options.log;
    this.#onWritten = options.onWritten;
    this.#seq = options.lastSeq ?? 0;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  get bytes(): number {
    return this.#storedBytes;
  }

  /**
   * A piece of the command's output, counted against the cap. A NUL in it is stored as U+FFFD,
   * as bytes that are no UTF-8 are: PostgreSQL's text refuses NUL, and the insert that failed on
   * it would take the pieces written with it (the command line, how it ended) out of the log.
   */
  output(stream: 'out' | 'err', output: string): void {
    const text = output.replaceAll('\u0000', '\uFFFD');
    if (text === '' || this.#truncated) return;
    const size = Buffer.byteLength(text, 'utf8');
    const cut =
      this.#outputBytes + size > RUN_LOG_CAP_BYTES
        ? LOG_CUT_LINE
        : this.#outputPieces >= RUN_LOG_CAP_LINES
          ? LOG_CUT_LINES_LINE
          : undefined;
    if (cut) {
      this.#truncated = true;
      this.system(cut);
      return;
    }
    this.#outputBytes += size;
    this.#outputPieces += 1;
    this.#push(stream, text);
  }

  /** A line of the tool's own (connecting, how it ended): always kept. */
  system(text: string): void {
    this.#push('system', text.endsWith('\n') ? text : `${text}\n`);
  }

  #push(stream: RunLogStream, text: string): void {
    this.#storedBytes += Buffer.byteLength(text, 'utf8');
    this.#seq += 1;
    this.#queue.push({
      runId: this.#runId,
      seq: this.#seq,
      stream,
      text,
      at: new Date().toISOString(),
    });
    this.#draining ??= this.#drain().finally(() => (this.#draining = null));
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#queue.length);
      const bytes = this.#storedBytes;
      const truncated = this.#truncated;
      try {
        await this.#db.kysely.transaction().execute(async (trx) => {
          for (let i = 0; i < batch.length; i += ROWS_PER_INSERT) {
            await trx
              .insertInto('runLog')
              .values(batch.slice(i, i + ROWS_PER_INSERT))
              .execute();
          }
          await trx
            .updateTable('run')
            .set({ logBytes: bytes, logTruncated: fromBool(truncated, this.#db.dialect) })
            .where('id', '=', this.#runId)
            .execute();
        });
      } catch (error) {
        // The run's row went with its client, or the database is away: the command goes on,
        // and the pieces are lost rather than held in memory without bound.
        this.#log.warn({ err: error, runId: this.#runId }, 'run log pieces could not be stored');
      }
      this.#onWritten();
    }
  }

  /** Resolves once every piece given so far is stored (or given up). */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
  }
}
