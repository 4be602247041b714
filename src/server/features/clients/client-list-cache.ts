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
  /** Every client in full, as `GET /api/clients` has always answered. */
  full: CachedBody;
  /** What the web app's list shows and searches (`?view=summary`, see ClientSummary). */
  summary: CachedBody;
  /** The list as objects, for `?q=` searches: parsed from the full body on first demand. */
  parsed?: Client[];
}

const gzip = promisify(zlib.gzip);

/**
 * The list as objects. Not kept from the read: ten thousand clients as objects hold three
 * times the memory of their JSON, and only API searches (`?q=`) need them.
 */
export function listedClients(list: CachedList): Client[] {
  list.parsed ??= (JSON.parse(list.full.body.toString()) as { clients: Client[] }).clients;
  return list.parsed;
}

/** A body gzipped: once per version, for every browser that accepts it. */
export function gzippedBody(cached: CachedBody): Promise<Buffer> {
  cached.gzip ??= gzip(cached.body, { level: 6 });
  return cached.gzip;
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

  // Both forms from one read: the web app asks for the summary, API clients for the full list.
  async #build(version: string): Promise<CachedList> {
    const clients = await this.#load();
    return {
      version,
      full: { etag: `W/"${version}"`, body: Buffer.from(JSON.stringify({ clients })) },
      summary: {
        etag: `W/"${version}.summary"`,
        body: Buffer.from(JSON.stringify({ clients: clients.map(summarizeClient) })),
      },
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
