import type { Kysely } from 'kysely';
import type { Server, ServerStatus } from '#shared/servers.ts';
import { foldForSearch } from '#shared/client-search.ts';
import type { Database } from '#server/db/schema.ts';
import { presentServer } from './server-presenter.ts';

export interface ServerFilter {
  clientId?: string;
  status?: ServerStatus;
  /** Every word must be found in the label, host, user or client name or code. */
  q?: string;
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
    let query = this.#select();
    if (filter.clientId !== undefined) query = query.where('server.clientId', '=', filter.clientId);
    if (filter.status !== undefined) query = query.where('server.checkStatus', '=', filter.status);
    const rows = await query
      .orderBy('client.createdAt')
      .orderBy('client.id')
      .orderBy('server.position')
      .execute();
    const servers = rows.map(presentServer);
    const words = foldForSearch(filter.q ?? '')
      .split(/\s+/)
      .filter((word) => word !== '');
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

  async get(id: string): Promise<Server | undefined> {
    const row = await this.#select().where('server.id', '=', id).executeTakeFirst();
    return row ? presentServer(row) : undefined;
  }
}
