import { exportedServerOf } from '../servers/server-rows.ts';
import {
  EXPORT_EVENT_FIELD,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ClientExport,
  type ExportedClient,
  type ExportedCredential,
  type ExportedServer,
} from '#shared/client-transfer.ts';
import type { Client } from '#shared/clients.ts';
import type { Transaction } from 'kysely';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import type { SecretBox } from '#server/secrets.ts';
import { chunks, IDS_PER_STATEMENT } from '#server/db/chunks.ts';
import {
  CREDENTIAL_SECRET_COLUMNS,
  joinedPassword,
  openCredentialSecret,
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

/** Each client's servers in their order, and the ids of the primary password credentials. */
async function serversOf(trx: Transaction<Database>, clients: readonly Client[]) {
  const wanted = new Set(clients.map((client) => client.id));
  const rows = await trx
    .selectFrom('server')
    .innerJoin('client', 'client.id', 'server.clientId')
    .leftJoin('credential', 'credential.id', 'server.credentialId')
    .select([
      'server.id',
      'server.clientId',
      'server.label',
      'server.host',
      'server.port',
      'server.username',
      'server.uiDir',
      'server.private',
      'server.credentialId',
      'server.hostKeyAlgorithm',
      'server.hostKeyFingerprint',
      'client.primaryServerId',
      'credential.kind as credentialKind',
    ])
    .orderBy('server.clientId')
    .orderBy('server.position')
    .execute();
  const byClient = new Map<string, ExportedServer[]>();
  const primaryPasswords = new Set<string>();
  for (const row of rows) {
    if (!wanted.has(row.clientId)) continue;
    const server = exportedServerOf(row);
    if (server.primary && row.credentialKind === 'password') {
      primaryPasswords.add(row.credentialId!);
    }
    const list = byClient.get(row.clientId) ?? [];
    list.push(server);
    byClient.set(row.clientId, list);
  }
  return { byClient, primaryPasswords };
}

/** The credentials under `ids`, by name; with `secrets`, their secrets opened. */
async function credentialsOf(
  trx: Transaction<Database>,
  box: SecretBox,
  ids: readonly string[],
  secrets: boolean,
): Promise<ExportedCredential[]> {
  const out: ExportedCredential[] = [];
  for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
    const rows = await trx
      .selectFrom('credential')
      .select([
        'id',
        'name',
        'kind',
        'publicKey',
        'fingerprint',
        'secret',
        'sealedForClient',
        'passphrase',
      ])
      .where('id', 'in', chunk)
      .execute();
    for (const row of rows) {
      const fields = {
        id: row.id,
        name: row.name,
        kind: row.kind,
        publicKey: row.publicKey,
        fingerprint: row.fingerprint,
      };
      out.push(secrets ? { ...fields, ...openCredentialSecret(box, row) } : fields);
    }
  }
  const exact = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => exact(a.name, b.name) || exact(a.id, b.id));
}

/**
 * Every client (or, with `ids`, those clients: all of them or, when one is missing, a
 * ClientsNotFoundError), as the API presents it, with all its servers, and the vault
 * credentials they use, in the export format. With `secrets`, each stored password and each
 * credential's secret is opened and put in the file, and each read is recorded in the event
 * log by `actor` in the same transaction as the read: a file with secrets never leaves without
 * its trace. A client's password (its primary server's password credential) is recorded as a
 * password read of that client; any other credential as revealed for an export.
 */
export async function exportClients(
  db: Db,
  box: SecretBox,
  repository: ClientRepository,
  options: {
    secrets: boolean;
    actor: NewEvent['actor'];
    ids?: readonly string[];
    /**
     * The clients the person may see (access by tag): the others are left out, and named in
     * `ids` they are missing, as clients that do not exist. Their servers and the credentials
     * those use come only with them.
     */
    visible?: (client: Client) => boolean;
  },
): Promise<{ file: ClientExport; secretsRead: number }> {
  return db.kysely.transaction().execute(async (trx) => {
    const { visible } = options;
    const all = await repository.list(trx);
    const clients = selected(visible ? all.filter(visible) : all, options.ids);
    const { byClient, primaryPasswords } = await serversOf(trx, clients);
    const used = [
      ...new Set(
        [...byClient.values()].flatMap((servers) =>
          servers.flatMap((server) => (server.credentialId === null ? [] : [server.credentialId])),
        ),
      ),
    ];
    const credentials = await credentialsOf(trx, box, used, options.secrets);
    let exported: ExportedClient[] = clients.map((client) => ({
      ...client,
      servers: byClient.get(client.id) ?? [],
    }));
    let secretsRead = 0;
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
      exported = exported.map((client) => {
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
      const revealed = credentials.filter((credential) => !primaryPasswords.has(credential.id));
      for (const credential of revealed) {
        events.push({
          kind: 'credential.revealed',
          clientId: null,
          credentialId: credential.id,
          actor: options.actor,
          at,
          fields: [EXPORT_EVENT_FIELD],
        });
      }
      // As a reveal from the vault, or reading a client's password, does: each credential
      // whose secret the file carries shows who last read it.
      for (const chunk of chunks(
        credentials.map((credential) => credential.id),
        IDS_PER_STATEMENT,
      )) {
        await trx
          .updateTable('credential')
          .set({ revealedAt: at, revealedBy: options.actor.id })
          .where('id', 'in', chunk)
          .execute();
      }
      await appendEvents(trx, db.dialect, events);
      secretsRead = events.length;
    }
    return {
      file: {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAt: new Date().toISOString(),
        includesSecrets: options.secrets,
        clients: exported,
        credentials,
      },
      secretsRead,
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
