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
import { inSnapshot } from '#server/db/snapshot.ts';
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

interface ExportOptions {
  secrets: boolean;
  actor: NewEvent['actor'];
  ids?: readonly string[];
  /**
   * The clients the person may see (access by tag): the others are left out, and named in
   * `ids` they are missing, as clients that do not exist. Their servers and the credentials
   * those use come only with them.
   */
  visible?: (client: Client) => boolean;
}

/**
 * Every client (or, with `ids`, those clients: all of them or, when one is missing, a
 * ClientsNotFoundError), as the API presents it, with all its servers, and the vault
 * credentials they use, in the export format, read as one moment of the database (a commit
 * landing between the reads would otherwise make a file whose servers name credentials it
 * lacks). With `secrets`, each stored password and each credential's secret is opened and put
 * in the file, and each read is then recorded in the event log by `actor`: the file is returned
 * only once that record is committed, so it never leaves without its trace. A client's password
 * (its primary server's password credential) is recorded as a password read of that client; any
 * other credential as revealed for an export.
 */
export async function exportClients(
  db: Db,
  box: SecretBox,
  repository: ClientRepository,
  options: ExportOptions,
): Promise<{ file: ClientExport; secretsRead: number }> {
  const read = await inSnapshot(db, (trx) => readExport(trx, box, repository, options));
  const events = options.secrets ? secretReads(read, options.actor) : [];
  if (options.secrets) {
    // Its own transaction: PostgreSQL's snapshot above is read-only, and the event log numbers
    // an event from the last one committed, which a snapshot taken earlier may not see.
    await db.kysely.transaction().execute(async (trx) => {
      for (const chunk of chunks(
        read.credentials.map((credential) => credential.id),
        IDS_PER_STATEMENT,
      )) {
        await trx
          .updateTable('credential')
          .set({ revealedAt: read.at, revealedBy: options.actor.id })
          .where('id', 'in', chunk)
          .execute();
      }
      await appendEvents(trx, db.dialect, events);
    });
  }
  return {
    file: {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: read.at,
      includesSecrets: options.secrets,
      clients: read.clients,
      credentials: read.credentials,
    },
    secretsRead: events.length,
  };
}

/** What an export holds, read in one transaction, and what it needs to record its reads. */
interface ExportRead {
  at: string;
  clients: ExportedClient[];
  credentials: ExportedCredential[];
  /** The clients whose password the file carries (their primary server's credential). */
  passwordsRead: string[];
  /** The credentials kept as a client's password, recorded as that client's password read. */
  primaryPasswords: Set<string>;
}

async function readExport(
  trx: Transaction<Database>,
  box: SecretBox,
  repository: ClientRepository,
  options: ExportOptions,
): Promise<ExportRead> {
  const at = new Date().toISOString();
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
  const exported: ExportedClient[] = clients.map((client) => ({
    ...client,
    servers: byClient.get(client.id) ?? [],
  }));
  if (!options.secrets) {
    return { at, clients: exported, credentials, passwordsRead: [], primaryPasswords };
  }
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
  return {
    at,
    clients: exported.map((client) => ({
      ...client,
      server: { ...client.server, password: passwords.get(client.id) ?? '' },
    })),
    credentials,
    passwordsRead: exported.map((client) => client.id).filter((id) => passwords.has(id)),
    primaryPasswords,
  };
}

/** The event-log entries of an export with secrets: one per secret the file carries. */
function secretReads(read: ExportRead, actor: NewEvent['actor']): NewEvent[] {
  const fields = [EXPORT_EVENT_FIELD];
  const passwordReads = read.passwordsRead.map((clientId): NewEvent => ({
    kind: 'client.password_read',
    clientId,
    actor,
    at: read.at,
    fields,
  }));
  // As a reveal from the vault does: any other credential whose secret the file carries.
  const reveals = read.credentials
    .filter((credential) => !read.primaryPasswords.has(credential.id))
    .map((credential): NewEvent => ({
      kind: 'credential.revealed',
      clientId: null,
      credentialId: credential.id,
      actor,
      at: read.at,
      fields,
    }));
  return [...passwordReads, ...reveals];
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
