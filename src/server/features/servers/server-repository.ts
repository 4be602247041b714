import type { Kysely } from 'kysely';
import type { Server, ServerStatus } from '#shared/servers.ts';
import { matchesLookup } from '#shared/clients.ts';
import type { ClientEvent } from '#shared/events.ts';
import { foldForSearch, parseSearch } from '#shared/client-search.ts';
import type { Database } from '#server/db/schema.ts';
import { toStringList } from '#server/db/codec.ts';
import { readServerHistory } from '../clients/client-history.ts';
import { presentServer } from './server-presenter.ts';

export interface ServerFilter {
  clientId?: string;
  status?: ServerStatus;
  /**
   * Every word (or "quoted words") must be found in the label, host, user or client name or
   * code, as the client list's search reads its box; a `tag:` word is read as a plain word.
   */
  q?: string;
  /** Servers of the clients carrying this tag (ignoring case). */
  tag?: string;
  /** Servers of the client with this code (ignoring case). */
  code?: string;
  /** Servers at this host name or address (ignoring case). */
  host?: string;
}

/** Servers as the Servers section and a client's panel read them. */
export class ServerRepository {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  #select() {
    return this.#db
      .selectFrom('server')
      .innerJoin('client', 'client.id', 'server.clientId')
      .leftJoin('credential', 'credential.id', 'server.credentialId')
      .selectAll('server')
      .select([
        'client.name as clientName',
        'client.code as clientCode',
        'client.primaryServerId',
        'credential.name as credentialName',
        'credential.kind as credentialKind',
      ]);
  }

  /** In the clients' order (as the client list), each client's servers in their order. */
  async list(filter: ServerFilter = {}): Promise<Server[]> {
    let query = this.#select().select('client.tags as clientTags');
    if (filter.clientId !== undefined) query = query.where('server.clientId', '=', filter.clientId);
    if (filter.status !== undefined) query = query.where('server.checkStatus', '=', filter.status);
    const found = await query
      .orderBy('client.createdAt')
      .orderBy('client.id')
      .orderBy('server.position')
      .execute();
    // Compared here with the clients' own lookup: SQLite's lower() folds ASCII only.
    const rows = found.filter((row) =>
      matchesLookup(
        { tags: toStringList(row.clientTags), code: row.clientCode, server: { host: row.host } },
        filter,
      ),
    );
    const servers = rows.map(presentServer);
    const words = parseSearch(filter.q ?? '').map((term) => term.value);
    if (words.length === 0) return servers;
    return servers.filter((server) => {
      const text = foldForSearch(
        [server.label, server.host, server.username, server.client.name, server.client.code].join(
          '\n',
        ),
      );
      return words.every((word) => text.includes(word));
    });
  }

  /** The server's events, newest first; undefined when neither it nor any event exists. */
  async history(id: string): Promise<ClientEvent[] | undefined> {
    const events = await readServerHistory(this.#db, id);
    if (events.length > 0) return events;
    return (await this.get(id)) ? [] : undefined;
  }

  async get(id: string): Promise<Server | undefined> {
    const row = await this.#select().where('server.id', '=', id).executeTakeFirst();
    return row ? presentServer(row) : undefined;
  }
}
