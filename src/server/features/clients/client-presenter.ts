import type { Selectable } from 'kysely';
import type { Client } from '#shared/clients.ts';
import type { ClientTable } from '#server/db/schema.ts';
import { toBool, toIso, toStringList } from '#server/db/codec.ts';

/** A client's row with who created and last changed it, by email. */
export type ClientRow = Selectable<ClientTable> & {
  createdByEmail: string | null;
  updatedByEmail: string | null;
};

/** The stored row turned into what the API presents; the password only as `hasPassword`. */
export function presentClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    tags: toStringList(row.tags),
    startDate: row.startDate,
    server: {
      host: row.serverHost,
      port: row.serverPort,
      username: row.serverUsername,
      private: toBool(row.serverPrivate),
      uiDir: row.serverUiDir,
      hasPassword: row.serverPassword !== null,
    },
    domains: toStringList(row.domains),
    createdAt: toIso(row.createdAt),
    createdBy: row.createdByEmail,
    updatedAt: toIso(row.updatedAt),
    updatedBy: row.updatedByEmail,
    version: row.version,
  };
}
