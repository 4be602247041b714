import type { Selectable, Transaction } from 'kysely';
import type { Database, ServerTable } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import { fromBool, toBool, toIso } from '#server/db/codec.ts';
import { chunks, IDS_PER_STATEMENT, ROWS_PER_INSERT } from '#server/db/chunks.ts';
import type { ExportedServer } from '#shared/client-transfer.ts';

/**
 * A server row as a deleted client keeps it (`deletedClient.servers`), in plain JSON values
 * whatever the dialect, so a snapshot taken on one database restores on the other.
 */
export type ServerSnapshot = Omit<
  Selectable<ServerTable>,
  'private' | 'checkedAt' | 'statusSince' | 'createdAt' | 'updatedAt'
> & {
  private: boolean;
  checkedAt: string | null;
  statusSince: string | null;
  createdAt: string;
  updatedAt: string;
};

export function snapshotOf(row: Selectable<ServerTable>): ServerSnapshot {
  return {
    ...row,
    private: toBool(row.private),
    checkedAt: row.checkedAt === null ? null : toIso(row.checkedAt),
    statusSince: row.statusSince === null ? null : toIso(row.statusSince),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** The servers of each of `clientIds`, as snapshots, in their order. */
export async function snapshotServers(
  trx: Transaction<Database>,
  clientIds: readonly string[],
): Promise<Map<string, ServerSnapshot[]>> {
  const byClient = new Map<string, ServerSnapshot[]>();
  for (const chunk of chunks(clientIds, IDS_PER_STATEMENT)) {
    const rows = await trx
      .selectFrom('server')
      .selectAll()
      .where('clientId', 'in', chunk)
      .orderBy('clientId')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const list = byClient.get(row.clientId) ?? [];
      list.push(snapshotOf(row));
      byClient.set(row.clientId, list);
    }
  }
  return byClient;
}

/**
 * Puts snapshot servers back (their clients are back already). A credential removed from the
 * vault meanwhile is not pointed at, nor one `relinks` refuses for the server's client (one the
 * person restoring may no longer have: relinkableCredentials); `person` maps people who may
 * have been removed to null.
 */
export async function restoreServers(
  trx: Transaction<Database>,
  dialect: Dialect,
  snapshots: readonly ServerSnapshot[],
  person: (id: string | null) => string | null,
  relinks: (credentialId: string, clientId: string) => boolean,
): Promise<void> {
  const wanted = [
    ...new Set(snapshots.flatMap((s) => (s.credentialId === null ? [] : [s.credentialId]))),
  ];
  const credentials = new Set<string>();
  for (const chunk of chunks(wanted, IDS_PER_STATEMENT)) {
    const found = await trx
      .selectFrom('credential')
      .select('id')
      .where('id', 'in', chunk)
      .execute();
    for (const { id } of found) credentials.add(id);
  }
  for (const chunk of chunks(snapshots, ROWS_PER_INSERT)) {
    await trx
      .insertInto('server')
      .values(
        chunk.map((s) => ({
          ...s,
          private: fromBool(s.private, dialect),
          // Snapshots taken before migration 0009 lack them.
          offeredHostKeyAlgorithm: s.offeredHostKeyAlgorithm ?? null,
          offeredHostKeyFingerprint: s.offeredHostKeyFingerprint ?? null,
          credentialId:
            s.credentialId !== null &&
            credentials.has(s.credentialId) &&
            relinks(s.credentialId, s.clientId)
              ? s.credentialId
              : null,
          createdBy: person(s.createdBy),
          updatedBy: person(s.updatedBy),
        })),
      )
      .execute();
  }
}

export function parseSnapshots(json: string): ServerSnapshot[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? (parsed as ServerSnapshot[]) : [];
}

/**
 * What a server forgets when its host or port changes: the host keys belong to the machine that
 * answered there, and its status to the last check of it.
 */
export function movedServerColumns(at: string) {
  return {
    hostKeyAlgorithm: null,
    hostKeyFingerprint: null,
    offeredHostKeyAlgorithm: null,
    offeredHostKeyFingerprint: null,
    checkStatus: 'not_checked' as const,
    checkReason: null,
    statusSince: at,
  };
}

/** A host key as the API shows it, from its two columns; null when none is kept. */
export function hostKeyOf(
  algorithm: string | null,
  fingerprint: string | null,
): { algorithm: string; fingerprint: string } | null {
  return algorithm === null || fingerprint === null ? null : { algorithm, fingerprint };
}

/** A server as an export lists it (and an import compares it): its fields, not its state. */
export function exportedServerOf(
  row: Pick<
    Selectable<ServerTable>,
    | 'id'
    | 'label'
    | 'host'
    | 'port'
    | 'username'
    | 'uiDir'
    | 'private'
    | 'credentialId'
    | 'hostKeyAlgorithm'
    | 'hostKeyFingerprint'
  > & { primaryServerId: string | null },
): ExportedServer {
  return {
    label: row.label,
    host: row.host,
    port: row.port,
    username: row.username,
    uiDir: row.uiDir,
    private: toBool(row.private),
    primary: row.id === row.primaryServerId,
    credentialId: row.credentialId,
    hostKey: hostKeyOf(row.hostKeyAlgorithm, row.hostKeyFingerprint),
  };
}
