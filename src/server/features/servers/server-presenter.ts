import type { Selectable } from 'kysely';
import type { Server } from '#shared/servers.ts';
import type { CredentialKind } from '#shared/servers.ts';
import type { ServerTable } from '#server/db/schema.ts';
import { toBool, toIso } from '#server/db/codec.ts';
import { hostKeyOf } from './server-rows.ts';

/** A server's row with its client and the name and kind of its credential. */
export type ServerRow = Selectable<ServerTable> & {
  clientName: string;
  clientCode: string;
  primaryServerId: string | null;
  credentialName: string | null;
  credentialKind: CredentialKind | null;
};

export function presentServer(row: ServerRow): Server {
  return {
    id: row.id,
    client: { id: row.clientId, name: row.clientName, code: row.clientCode },
    primary: row.primaryServerId === row.id,
    label: row.label,
    host: row.host,
    port: row.port,
    username: row.username,
    uiDir: row.uiDir,
    private: toBool(row.private),
    credential:
      row.credentialId === null || row.credentialKind === null
        ? null
        : { id: row.credentialId, name: row.credentialName ?? '', kind: row.credentialKind },
    hostKey: hostKeyOf(row.hostKeyAlgorithm, row.hostKeyFingerprint),
    offeredHostKey: hostKeyOf(row.offeredHostKeyAlgorithm, row.offeredHostKeyFingerprint),
    status: row.checkStatus,
    reason: row.checkReason,
    checkedAt: row.checkedAt === null ? null : toIso(row.checkedAt),
    statusSince: row.statusSince === null ? null : toIso(row.statusSince),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    version: row.version,
  };
}
