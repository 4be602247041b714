import { promisify } from 'node:util';
import zlib from 'node:zlib';
import DataLoader from 'dataloader';
import { sql, type Kysely } from 'kysely';
import { summarizeClient, type Client } from '#shared/clients.ts';
import type { Database } from '../../db/schema.ts';

/** One form of the list, serialised once for every reader of its version. */
export interface CachedBody {
  etag: string;
  /** `{ "clients": [...] }`, UTF-8 encoded. */
  body: Buffer;
  /** The body gzipped, made on first demand (in the thread pool, off the event loop). */
  gzip?: Promise<Buffer>;
}

export interface CachedList {
  /** What the list was built from (see `#version`); the ETags name it. */
  version: string;
  /** What the web app's list shows and searches (`?view=summary`, see ClientSummary). */
  summary: CachedBody;
  /** Every client in full, as `GET /api/clients` has always answered: built on first demand. */
  full?: Promise<CachedBody>;
  /** The full list as objects, for `?q=` searches: parsed from the full body on first demand. */
  parsed?: Promise<Client[]>;
}

const gzip = promisify(zlib.gzip);

/** A body gzipped: once per version, for every browser that accepts it. */
export function gzippedBody(cached: CachedBody): Promise<Buffer> {
  cached.gzip ??= gzip(cached.body, { level: 6 });
  return cached.gzip;
}

/** `promise`, with `forget` called if it fails: the next request then reads again. */
function forgottenOnFailure<T>(promise: Promise<T>, forget: () => void): Promise<T> {
  promise.catch(forget);
  return promise;
}

function serialised(etag: string, clients: unknown[]): CachedBody {
  return { etag, body: Buffer.from(JSON.stringify({ clients })) };
}

/**
 * The whole client list, read and serialised once per change instead of once per request (at
 * 10,000 clients that is 4.5 MB of JSON and tens of milliseconds).
 *
 * Every change to a client appends to the event log in its own transaction, so the log's head
 * sequence number says whether the list changed, on every instance that shares the database: a
 * write on another instance moves the same head. The list also shows who created and last
 * changed each client, by name, from the user table: a renamed or removed person changes it
 * without an event, so the version also holds the user table's count and latest update. That
 * version is one cheap query, read before the list, so a cached body is never older than its
 * version says (at worst newer, when a write lands between the two reads; the next request
 * then reads the list again).
 *
 * The requests that arrive in one turn of the event loop share one version query, sent after
 * that turn has read them all: each still sees every commit made before it arrived, and under
 * load PostgreSQL answers one query for many requests instead of one each.
 *
 * A change builds the summary, which every open browser asks for again; the full list (4.6 MB
 * of JSON at 10,000 clients, for API clients and `?q=` searches) is read and serialised only
 * when one asks for it. That read comes after the version's, so it too is never older.
 */
export class ClientListCache {
  readonly #db: Kysely<Database>;
  readonly #load: () => Promise<Client[]>;
  #entry: CachedList | undefined;
  #pending: { version: string; promise: Promise<CachedList> } | undefined;
  readonly #versions = new DataLoader<'version', string>(
    async (asked) => {
      const version = await this.#version();
      return asked.map(() => version);
    },
    // Never kept: only requests that arrived before the query started may share its answer.
    { cache: false, batchScheduleFn: (send) => setImmediate(send) },
  );

  constructor(db: Kysely<Database>, load: () => Promise<Client[]>) {
    this.#db = db;
    this.#load = load;
  }

  async current(): Promise<CachedList> {
    const version = await this.#versions.load('version');
    if (this.#entry?.version === version) return this.#entry;
    // Readers that miss together share one read of the table.
    if (this.#pending?.version === version) return this.#pending.promise;
    const promise = this.#build(version);
    this.#pending = { version, promise };
    try {
      const entry = await promise;
      this.#entry = entry;
      return entry;
    } finally {
      if (this.#pending?.promise === promise) this.#pending = undefined;
    }
  }

  /** One form of `list`: the summary is there already, the full list is built once if asked. */
  body(list: CachedList, view: 'full' | 'summary'): Promise<CachedBody> {
    if (view === 'summary') return Promise.resolve(list.summary);
    list.full ??= forgottenOnFailure(
      this.#load().then((clients) => serialised(`W/"${list.version}"`, clients)),
      () => delete list.full,
    );
    return list.full;
  }

  /**
   * The full list as objects. Not kept from the read: ten thousand clients as objects hold three
   * times the memory of their JSON, and only API searches (`?q=`) need them.
   */
  clients(list: CachedList): Promise<Client[]> {
    list.parsed ??= forgottenOnFailure(
      this.body(list, 'full').then(
        ({ body }) => (JSON.parse(body.toString()) as { clients: Client[] }).clients,
      ),
      () => delete list.parsed,
    );
    return list.parsed;
  }

  async #build(version: string): Promise<CachedList> {
    const clients = await this.#load();
    return {
      version,
      summary: serialised(`W/"${version}.summary"`, clients.map(summarizeClient)),
    };
  }

  async #version(): Promise<string> {
    const { rows } = await sql<{
      head: number | string | null;
      people: number | string;
      changed: string | Date | number | null;
    }>`select (select max("seq") from "event") as "head",
              (select count(*) from "user") as "people",
              (select max("updatedAt") from "user") as "changed"`.execute(this.#db);
    const row = rows[0]!;
    const changed = row.changed === null ? 0 : new Date(row.changed).getTime();
    return `${Number(row.head ?? 0)}-${Number(row.people)}-${changed.toString(36)}`;
  }
}

/** Whether an If-None-Match header names this ETag (weak comparison, as GET allows). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
