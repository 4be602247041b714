import type { Selectable } from 'kysely';
import { DEFAULT_SERVER_PORT, type Client } from '#shared/clients.ts';
import type { CredentialKind } from '#shared/servers.ts';
import type { ClientTable } from '#server/db/schema.ts';
import { toBool, toIso, toStringList } from '#server/db/codec.ts';

/**
 * A client's row with its primary server's columns (null when it has none), the kind of that
 * server's credential, and who created and last changed it, by email.
 */
export type ClientRow = Selectable<ClientTable> & {
  serverHost: string | null;
  serverPort: number | null;
  serverUsername: string | null;
  serverPrivate: number | boolean | null;
  serverUiDir: string | null;
  credentialKind: CredentialKind | null;
  createdByEmail: string | null;
  updatedByEmail: string | null;
};

/**
 * The stored rows turned into what the API presents: `server` is the primary server (the form's
 * defaults when the client has none), its password only as `hasPassword`.
 */
export function presentClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    tags: toStringList(row.tags),
    startDate: row.startDate,
    server: {
      host: row.serverHost ?? '',
      port: row.serverPort ?? DEFAULT_SERVER_PORT,
      username: row.serverUsername ?? '',
      private: row.serverPrivate === null ? true : toBool(row.serverPrivate),
      uiDir: row.serverUiDir ?? '',
      hasPassword: row.credentialKind === 'password',
    },
    domains: toStringList(row.domains),
    createdAt: toIso(row.createdAt),
    createdBy: row.createdByEmail,
    updatedAt: toIso(row.updatedAt),
    updatedBy: row.updatedByEmail,
    version: row.version,
  };
}
