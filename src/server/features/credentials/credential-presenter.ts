import type { Credential } from '#shared/credentials.ts';
import type { CredentialKind } from '#shared/servers.ts';
import { toBool, toIso } from '#server/db/codec.ts';

/** A credential's row as the vault reads it: no secret, only whether it has a passphrase. */
export interface CredentialRow {
  id: string;
  name: string;
  kind: CredentialKind;
  publicKey: string | null;
  fingerprint: string | null;
  hasPassphrase: number | boolean;
  createdAt: string | Date;
  createdByEmail: string | null;
  updatedAt: string | Date;
  updatedByEmail: string | null;
  revealedAt: string | Date | null;
  revealedByEmail: string | null;
  version: number;
}

export type CredentialUser = Credential['servers'][number];

export function presentCredential(row: CredentialRow, servers: CredentialUser[]): Credential {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    publicKey: row.publicKey,
    fingerprint: row.fingerprint,
    hasPassphrase: toBool(row.hasPassphrase),
    servers,
    createdAt: toIso(row.createdAt),
    createdBy: row.createdByEmail,
    updatedAt: toIso(row.updatedAt),
    updatedBy: row.updatedByEmail,
    revealedAt: row.revealedAt === null ? null : toIso(row.revealedAt),
    revealedBy: row.revealedByEmail,
    version: row.version,
  };
}

/** How a refusal names a server: `production of Acme (ACME)`. */
export function serverName(server: CredentialUser): string {
  return `${server.label} of ${server.client.name} (${server.client.code})`;
}
