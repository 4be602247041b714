import type { Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { fromBool } from '#server/db/codec.ts';
import { chunks, IDS_PER_STATEMENT, ROWS_PER_INSERT } from '#server/db/chunks.ts';
import { newRecordId, newRecordStamps } from '#server/db/record-id.ts';
import type { ServerWriteContext } from '../clients/primary-server.ts';
import { exportedServerOf, movedServerColumns } from './server-rows.ts';

export interface HostKey {
  algorithm: string;
  fingerprint: string;
}

/** A server as a whole list of a client's servers gives it (an import of our export). */
export interface ListedServer {
  label: string;
  host: string;
  port: number;
  username: string;
  uiDir: string;
  private: boolean;
  primary: boolean;
  credentialId: string | null;
  hostKey: HostKey | null;
}

/** A stored server, as a list of servers is compared with it. */
export interface StoredServer extends ListedServer {
  id: string;
  /** Its order number among the client's servers (there may be gaps). */
  position: number;
  version: number;
}

/** The servers of each of `clientIds`, in their order. */
export async function readServerLists(
  trx: Transaction<Database>,
  clientIds: readonly string[],
): Promise<Map<string, StoredServer[]>> {
  const byClient = new Map<string, StoredServer[]>();
  for (const chunk of chunks(clientIds, IDS_PER_STATEMENT)) {
    const rows = await trx
      .selectFrom('server')
      .innerJoin('client', 'client.id', 'server.clientId')
      .selectAll('server')
      .select('client.primaryServerId')
      .where('server.clientId', 'in', chunk)
      .orderBy('server.clientId')
      .orderBy('server.position')
      .execute();
    for (const row of rows) {
      const list = byClient.get(row.clientId) ?? [];
      list.push({
        id: row.id,
        position: row.position,
        version: row.version,
        ...exportedServerOf(row),
      });
      byClient.set(row.clientId, list);
    }
  }
  return byClient;
}

/**
 * The list as it would be stored over `stored`: a server matched by label whose host and port
 * stay keeps the host key it pinned (it belongs to the machine that answered there); otherwise
 * the list's key is taken.
 */
export function withKeptHostKeys(
  stored: readonly StoredServer[],
  wanted: readonly ListedServer[],
): ListedServer[] {
  const byLabel = new Map(stored.map((server) => [server.label, server]));
  return wanted.map((server) => {
    const found = byLabel.get(server.label);
    const stays = found !== undefined && found.host === server.host && found.port === server.port;
    return stays && found.hostKey !== null ? { ...server, hostKey: found.hostKey } : server;
  });
}

const COMPARED = [
  'label',
  'host',
  'port',
  'username',
  'uiDir',
  'private',
  'primary',
  'credentialId',
] as const;

function sameServer(a: ListedServer, b: ListedServer): boolean {
  return (
    COMPARED.every((key) => a[key] === b[key]) &&
    a.hostKey?.algorithm === b.hostKey?.algorithm &&
    a.hostKey?.fingerprint === b.hostKey?.fingerprint
  );
}

/** Whether storing `wanted` (as withKeptHostKeys gives it) over `stored` changes anything. */
export function serverListChanged(
  stored: readonly StoredServer[],
  wanted: readonly ListedServer[],
): boolean {
  return stored.length !== wanted.length || wanted.some((s, i) => !sameServer(stored[i]!, s));
}

function listedColumns(server: ListedServer, context: Omit<ServerWriteContext, 'trx'>) {
  return {
    label: server.label,
    host: server.host,
    port: server.port,
    username: server.username,
    uiDir: server.uiDir,
    private: fromBool(server.private, context.dialect),
    credentialId: server.credentialId,
    hostKeyAlgorithm: server.hostKey?.algorithm ?? null,
    hostKeyFingerprint: server.hostKey?.fingerprint ?? null,
  };
}

/** A new server row for the client at `position`; not checked yet. */
export function newListedServer(
  context: Omit<ServerWriteContext, 'trx'>,
  clientId: string,
  position: number,
  server: ListedServer,
) {
  return {
    id: newRecordId(),
    clientId,
    position,
    ...listedColumns(server, context),
    offeredHostKeyAlgorithm: null,
    offeredHostKeyFingerprint: null,
    checkReason: null,
    checkedAt: null,
    statusSince: null,
    ...newRecordStamps(context.actor, context.at),
  };
}

/**
 * Stores `wanted` (as withKeptHostKeys gives it) as the client's servers: a stored server whose
 * label is in the list is updated in place (its id, check status and history stay; a new host
 * or port makes it not checked), one whose label is not is removed, the others are added; the
 * list's primary becomes the client's. The credentials the servers leave stay in the vault.
 * Returns the ids of the servers it removed, whose open problem issues the caller resolves once
 * all its row writes are done (resolving takes the event lock).
 */
export async function replaceServerList(
  context: ServerWriteContext,
  clientId: string,
  stored: readonly StoredServer[],
  wanted: readonly ListedServer[],
): Promise<string[]> {
  const { trx, at, actor } = context;
  const byLabel = new Map(stored.map((server) => [server.label, server]));
  const kept = new Set(wanted.map((server) => server.label));
  const removed = stored.filter((server) => !kept.has(server.label)).map((server) => server.id);
  for (const chunk of chunks(removed, IDS_PER_STATEMENT)) {
    await trx.deleteFrom('server').where('id', 'in', chunk).execute();
  }
  let primaryId: string | null = null;
  const added = [];
  for (const [position, server] of wanted.entries()) {
    const found = byLabel.get(server.label);
    if (found === undefined) {
      const row = newListedServer(context, clientId, position, server);
      added.push(row);
      if (server.primary) primaryId = row.id;
      continue;
    }
    if (server.primary) primaryId = found.id;
    // Being made the primary is the client's change, not the server's.
    const same = sameServer({ ...found, primary: false }, { ...server, primary: false });
    if (same && found.position === position) continue;
    const moved = found.host !== server.host || found.port !== server.port;
    await trx
      .updateTable('server')
      .set({
        position,
        // Moved: the file's pinned key (if any) replaces the forgotten one.
        ...(moved ? movedServerColumns(at) : {}),
        ...listedColumns(server, context),
        updatedAt: at,
        updatedBy: actor.id,
        version: found.version + 1,
      })
      .where('id', '=', found.id)
      .execute();
  }
  for (const part of chunks(added, ROWS_PER_INSERT)) {
    await trx.insertInto('server').values(part).execute();
  }
  await trx
    .updateTable('client')
    .set({ primaryServerId: primaryId })
    .where('id', '=', clientId)
    .execute();
  return removed;
}
