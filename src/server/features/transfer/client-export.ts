import {
  EXPORT_EVENT_FIELD,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ClientExport,
  type ExportedClient,
} from '#shared/client-transfer.ts';
import type { Client } from '#shared/clients.ts';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import {
  CREDENTIAL_SECRET_COLUMNS,
  joinedPassword,
} from '#server/features/credentials/credential-secrets.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import type { ClientRepository } from '#server/features/clients/client-repository.ts';

/** An export of chosen clients that names ids no client has: nothing was read or recorded. */
export class ClientsNotFoundError extends Error {
  override name = 'ClientsNotFoundError';
  readonly missing: readonly string[];
  constructor(missing: readonly string[]) {
    super(`No client has these ids: ${missing.join(', ')}`);
    this.missing = missing;
  }
}

/**
 * Every client (or, with `ids`, those clients: all of them or, when one is missing, a
 * ClientsNotFoundError), as the API presents it, in the export format. With `secrets`, each
 * stored password is opened and put in the file, and each read is recorded in the event log as
 * a password read by `actor`, in the same transaction as the read: a file with passwords never
 * leaves without its trace.
 */
export async function exportClients(
  db: Db,
  box: SecretBox,
  repository: ClientRepository,
  options: { secrets: boolean; actor: NewEvent['actor']; ids?: readonly string[] },
): Promise<{ file: ClientExport; passwordsRead: number }> {
  return db.kysely.transaction().execute(async (trx) => {
    const clients = selected(await repository.list(trx), options.ids);
    let exported: ExportedClient[] = clients;
    let passwordsRead = 0;
    if (options.secrets) {
      // The password of each client's primary server, kept in its credential.
      const passwords = new Map<string, string>();
      const rows = await trx
        .selectFrom('client')
        .innerJoin('server', 'server.id', 'client.primaryServerId')
        .innerJoin('credential', 'credential.id', 'server.credentialId')
        .select(['client.id', 'credential.kind as credentialKind', ...CREDENTIAL_SECRET_COLUMNS])
        .where('credential.kind', '=', 'password')
        .execute();
      for (const row of rows) passwords.set(row.id, joinedPassword(box, row) ?? '');
      const at = new Date().toISOString();
      const events: NewEvent[] = [];
      exported = clients.map((client) => {
        const password = passwords.get(client.id);
        if (password !== undefined) {
          events.push({
            kind: 'client.password_read',
            clientId: client.id,
            actor: options.actor,
            at,
            fields: [EXPORT_EVENT_FIELD],
          });
        }
        return {
          ...client,
          server: {
            ...client.server,
            password: password ?? '',
          },
        };
      });
      await appendEvents(trx, db.dialect, events);
      passwordsRead = events.length;
    }
    return {
      file: {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAt: new Date().toISOString(),
        includesSecrets: options.secrets,
        clients: exported,
      },
      passwordsRead,
    };
  });
}

/** The clients under `ids`, in the list's order; all of them when `ids` is not given. */
function selected(clients: Client[], ids: readonly string[] | undefined): Client[] {
  if (ids === undefined) return clients;
  const wanted = new Set(ids);
  const chosen = clients.filter((client) => wanted.has(client.id));
  if (chosen.length < wanted.size) {
    const found = new Set(chosen.map((client) => client.id));
    throw new ClientsNotFoundError(ids.filter((id) => !found.has(id)));
  }
  return chosen;
}
