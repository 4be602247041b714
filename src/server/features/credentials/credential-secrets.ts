import type { Selectable, Transaction } from 'kysely';
import type { CredentialKind } from '#shared/servers.ts';
import type { CredentialTable, Database } from '#server/db/schema.ts';
import { newRecordId, newRecordStamps, type Author } from '#server/db/record-id.ts';
import type { CredentialSecret } from '#shared/credentials.ts';
import {
  clientPasswordPlace,
  credentialPassphrasePlace,
  credentialPlace,
  type SecretBox,
} from '#server/secrets.ts';
import type { SshCredential } from '#server/ssh/credential-auth.ts';

/** The name of the credential that the client form's password is kept in. */
export function clientPasswordName(client: { name: string; code: string }): string {
  return `Password of ${client.name} (${client.code})`;
}

/** What a credential holds, in clear: for a password or token only `secret`. */
export interface CredentialMaterial {
  /** The private key (OpenSSH or PEM text), the password or the token. */
  secret: string;
  /** A pasted key's passphrase; null when it has none. */
  passphrase: string | null;
  /** For an SSH key: its `authorized_keys` line and `SHA256:…` fingerprint. */
  publicKey: string | null;
  fingerprint: string | null;
}

export function passwordMaterial(password: string): CredentialMaterial {
  return { secret: password, passphrase: null, publicKey: null, fingerprint: null };
}

/** The columns that hold `material`: the secret and the passphrase sealed at their places. */
export function sealedColumns(box: SecretBox, id: string, material: CredentialMaterial) {
  return {
    secret: box.seal(material.secret, credentialPlace(id)),
    sealedForClient: null,
    passphrase:
      material.passphrase === null
        ? null
        : box.seal(material.passphrase, credentialPassphrasePlace(id)),
    publicKey: material.publicKey,
    fingerprint: material.fingerprint,
  };
}

/** A new credential's row, its secrets sealed at its own places. */
export function newCredential(
  box: SecretBox,
  fields: { name: string; kind: CredentialKind },
  material: CredentialMaterial,
  actor: Author,
  at: string,
) {
  const id = newRecordId();
  return {
    id,
    name: fields.name,
    kind: fields.kind,
    ...sealedColumns(box, id, material),
    revealedAt: null,
    revealedBy: null,
    ...newRecordStamps(actor, at),
  };
}

/** A new `password` credential's row, its secret sealed at its own place. */
export function newPasswordCredential(
  box: SecretBox,
  name: string,
  password: string,
  actor: Author,
  at: string,
) {
  return newCredential(box, { name, kind: 'password' }, passwordMaterial(password), actor, at);
}

/** A credential's secret in clear (one migration 0007 moved opens at its client's place). */
function openCredential(
  box: SecretBox,
  row: Pick<Selectable<CredentialTable>, 'id' | 'secret' | 'sealedForClient'>,
): string {
  const place =
    row.sealedForClient === null
      ? credentialPlace(row.id)
      : clientPasswordPlace(row.sealedForClient);
  return box.open(row.secret, place);
}

/**
 * What a query joined to `credential` selects beside `credential.kind as credentialKind` so that
 * `joinedPassword` and `joinedSshCredential` can open the secret. Kept out of the client list's
 * query: it reads no secret.
 */
export const CREDENTIAL_SECRET_COLUMNS = [
  'credential.id as credentialId',
  'credential.secret as credentialSecret',
  'credential.sealedForClient as credentialSealedForClient',
  'credential.passphrase as credentialPassphrase',
] as const;

/** A row of a query joined to `credential` (all null when nothing was joined). */
export interface JoinedCredential {
  credentialId: string | null;
  credentialKind: CredentialKind | null;
  credentialSecret: string | null;
  credentialSealedForClient: string | null;
  credentialPassphrase: string | null;
}

/** The joined credential's password in clear; null when it is not a password credential. */
export function joinedPassword(box: SecretBox, row: JoinedCredential): string | null {
  const credential = joinedSshCredential(box, row);
  return credential?.kind === 'password' ? credential.password : null;
}

/**
 * The joined credential as an SSH login can use it: a password, or a private key with its
 * passphrase. Null when nothing is joined or it is a token, which no SSH login takes.
 */
export function joinedSshCredential(box: SecretBox, row: JoinedCredential): SshCredential | null {
  const id = row.credentialId;
  if (id === null || row.credentialSecret === null) return null;
  if (row.credentialKind !== 'password' && row.credentialKind !== 'ssh-key') return null;
  const { secret, passphrase } = openCredentialSecret(box, {
    id,
    secret: row.credentialSecret,
    sealedForClient: row.credentialSealedForClient,
    passphrase: row.credentialPassphrase,
  });
  if (row.credentialKind === 'password') return { kind: 'password', password: secret };
  return { kind: 'ssh-key', privateKey: secret, ...(passphrase === null ? {} : { passphrase }) };
}

/** A credential's secret and passphrase in clear, as a reveal hands them out. */
export function openCredentialSecret(
  box: SecretBox,
  row: Pick<Selectable<CredentialTable>, 'id' | 'secret' | 'sealedForClient' | 'passphrase'>,
): CredentialSecret {
  return {
    secret: openCredential(box, row),
    passphrase:
      row.passphrase === null ? null : box.open(row.passphrase, credentialPassphrasePlace(row.id)),
  };
}

/**
 * Replaces a credential's secret (a password, or all of `material`); its version goes up, as
 * any change to it, counted from the row as it is when written.
 */
export async function resealCredential(
  trx: Transaction<Database>,
  box: SecretBox,
  credentialId: string,
  plain: string | CredentialMaterial,
  actor: Author,
  at: string,
): Promise<void> {
  const material = typeof plain === 'string' ? passwordMaterial(plain) : plain;
  await trx
    .updateTable('credential')
    .set((eb) => ({
      ...sealedColumns(box, credentialId, material),
      updatedAt: at,
      updatedBy: actor.id,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', credentialId)
    .execute();
}
