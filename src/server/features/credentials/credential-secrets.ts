import type { Selectable, Transaction } from 'kysely';
import type { CredentialKind } from '#shared/servers.ts';
import type { CredentialTable, Database } from '#server/db/schema.ts';
import { newRecordId, newRecordStamps, type Author } from '#server/db/record-id.ts';
import { clientPasswordPlace, credentialPlace, type SecretBox } from '#server/secrets.ts';
import type { SshCredential } from '#server/ssh/reachability.ts';

/** The name of the credential that the client form's password is kept in. */
export function clientPasswordName(client: { name: string; code: string }): string {
  return `Password of ${client.name} (${client.code})`;
}

/** A new `password` credential's row, its secret sealed at its own place. */
export function newPasswordCredential(
  box: SecretBox,
  name: string,
  password: string,
  actor: Author,
  at: string,
) {
  const id = newRecordId();
  return {
    id,
    name,
    kind: 'password' as const,
    secret: box.seal(password, credentialPlace(id)),
    sealedForClient: null,
    publicKey: null,
    fingerprint: null,
    revealedAt: null,
    revealedBy: null,
    ...newRecordStamps(actor, at),
  };
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
 * passphrase (sealed at the credential's place, as the key is). Null when nothing is joined
 * or it is a token, which no SSH login takes.
 */
export function joinedSshCredential(box: SecretBox, row: JoinedCredential): SshCredential | null {
  const id = row.credentialId;
  if (id === null || row.credentialSecret === null) return null;
  const open = (sealed: string) =>
    openCredential(box, { id, secret: sealed, sealedForClient: row.credentialSealedForClient });
  switch (row.credentialKind) {
    case 'password':
      return { kind: 'password', password: open(row.credentialSecret) };
    case 'ssh-key':
      return {
        kind: 'ssh-key',
        privateKey: open(row.credentialSecret),
        ...(row.credentialPassphrase === null
          ? {}
          : { passphrase: open(row.credentialPassphrase) }),
      };
    default:
      return null;
  }
}

/** Replaces a credential's secret; its version goes up, as any change to it. */
export async function resealCredential(
  trx: Transaction<Database>,
  box: SecretBox,
  credential: Pick<Selectable<CredentialTable>, 'id' | 'version'>,
  plain: string,
  actor: Author,
  at: string,
): Promise<void> {
  await trx
    .updateTable('credential')
    .set({
      secret: box.seal(plain, credentialPlace(credential.id)),
      sealedForClient: null,
      updatedAt: at,
      updatedBy: actor.id,
      version: credential.version + 1,
    })
    .where('id', '=', credential.id)
    .execute();
}
