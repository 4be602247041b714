import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { summarizeClient, type Client } from '#shared/clients.ts';
import type { Db } from '#server/db/database.ts';

/** One form of the list, serialised once for every reader of the event log's head. */
export interface CachedBody {
  /** A digest of `body`: equal bodies, equal tags, whoever's list and whichever change. */
  etag: string;
  /** `{ "clients": [...] }`, UTF-8 encoded. */
  body: Buffer;
  /** The body gzipped, made on first demand (in the thread pool, off the event loop). */
  gzip?: Promise<Buffer>;
}

export interface CachedList {
  audience: Audience;
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

/**
 * The ETag names the bytes, not the event log's head: a person limited by tag then gets 304
 * after a change to a client they cannot see, where a head-named tag would tell them that
 * something hidden changed. Weak, as the gzipped copy shares it.
 */
function serialised(clients: unknown[]): CachedBody {
  const body = Buffer.from(JSON.stringify({ clients }));
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { etag: `W/"${digest}"`, body };
}

/**
 * Whose list it is: everyone's, or that of the people limited to one set of tags (access by
 * tag), with its own key and filter.
 */
export interface Audience {
  key: string;
  includes(client: Client): boolean;
}

export const EVERYONE: Audience = { key: 'all', includes: () => true };

/**
 * The client list, read and serialised once per change instead of once per request (at 10,000
 * clients that is 4.5 MB of JSON and tens of milliseconds).
 *
 * Every change to a client appends to the event log in its own transaction, so the log's head
 * sequence number says whether the list changed, on every instance that shares the database.
 * The head is read first, on every request, and the list after it, so a cached body is never
 * older than the head it is kept under (at worst newer, when a write lands between the two
 * reads; the next request then reads the list again). Only the bodies of the current head are
 * kept.
 *
 * A change builds the summary, which every open browser asks for again; the full list (for API
 * clients and `?q=` searches) is read and serialised only when one asks for it.
 */
export class ClientListCache {
  readonly #db: Db;
  readonly #load: () => Promise<Client[]>;
  #head: number | undefined;
  readonly #entries = new Map<string, Promise<CachedList>>();

  constructor(db: Db, load: () => Promise<Client[]>) {
    this.#db = db;
    this.#load = load;
  }

  /** The list as of now, for `audience`. */
  async current(audience: Audience = EVERYONE): Promise<CachedList> {
    const head = await this.#readHead();
    if (head !== this.#head) {
      this.#head = head;
      this.#entries.clear();
    }
    let entry = this.#entries.get(audience.key);
    if (!entry) {
      // Readers that miss together share one read of the table.
      entry = forgottenOnFailure(this.#build(audience), () => this.#entries.delete(audience.key));
      this.#entries.set(audience.key, entry);
    }
    return entry;
  }

  /** One form of `list`: the summary is there already, the full list is built once if asked. */
  body(list: CachedList, view: 'full' | 'summary'): Promise<CachedBody> {
    if (view === 'summary') return Promise.resolve(list.summary);
    list.full ??= forgottenOnFailure(
      this.#clientsOf(list).then(serialised),
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

  async #readHead(): Promise<number> {
    const row = await this.#db.kysely
      .selectFrom('event')
      .select((eb) => eb.fn.max('seq').as('head'))
      .executeTakeFirst();
    return Number(row?.head ?? 0);
  }

  async #clientsOf(list: CachedList): Promise<Client[]> {
    return (await this.#load()).filter((client) => list.audience.includes(client));
  }

  async #build(audience: Audience): Promise<CachedList> {
    const clients = (await this.#load()).filter((client) => audience.includes(client));
    return { audience, summary: serialised(clients.map(summarizeClient)) };
  }
}

/** Whether an If-None-Match header names this ETag (weak comparison, as GET allows). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
