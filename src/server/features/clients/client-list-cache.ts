import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { summarizeClient, type Client } from '#shared/clients.ts';
import type { Db } from '../../db/database.ts';
import { KeyedRead } from '../../db/keyed-read.ts';
import { andThen } from '../../db/sync-or-promise.ts';

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

interface VersionRow {
  head: number | string | null;
  people: number | string;
  changed: string | Date | number | null;
}

/**
 * What says whether the list changed (see ClientListCache), as a keyed read of one row under a
 * fixed key: it is then read as the session and get-one are, kept until something commits.
 */
const LIST_VERSION = new KeyedRead<VersionRow>({
  key: '"v"."list"',
  columns: `(select max("seq") from "event") as "head",
    (select count(*) from "user") as "people",
    (select max("updatedAt") from "user") as "changed"`,
  from: `(select 'list' as "list") "v"`,
});

function versionOf(row: Readonly<VersionRow> | undefined): string {
  if (!row) throw new Error('the list version query returned no row');
  const changed = row.changed === null ? 0 : new Date(row.changed).getTime();
  return `${Number(row.head ?? 0)}-${Number(row.people)}-${changed.toString(36)}`;
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
 * The version is a keyed read (`db/keyed-read.ts`), kept until something commits: on SQLite
 * the quick reader answers it without reading while nothing was committed; on PostgreSQL the
 * requests of a turn share one query or one snapshot check, and a request whose session check
 * saw the kept rows' snapshot gets it at once. Either way it reflects every commit made before
 * the request arrived, as a query of its own would.
 *
 * A change builds the summary, which every open browser asks for again; the full list (4.6 MB
 * of JSON at 10,000 clients, for API clients and `?q=` searches) is read and serialised only
 * when one asks for it. That read comes after the version's, so it too is never older.
 */
export class ClientListCache {
  readonly #db: Db;
  readonly #load: () => Promise<Client[]>;
  #entry: CachedList | undefined;
  #pending: { version: string; promise: Promise<CachedList> } | undefined;

  constructor(db: Db, load: () => Promise<Client[]>) {
    this.#db = db;
    this.#load = load;
  }

  /** The list as of the request's arrival; `arrivedAt`: its `readTurn` (KeyedRead.run). */
  async current(arrivedAt?: number): Promise<CachedList> {
    const version = await andThen(
      LIST_VERSION.run(this.#db, 'list', undefined, arrivedAt),
      versionOf,
    );
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
}

/** Whether an If-None-Match header names this ETag (weak comparison, as GET allows). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
