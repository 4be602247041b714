import type { Selectable, Transaction } from 'kysely';
import type { CredentialKind } from '#shared/servers.ts';
import type { CredentialTable, Database } from '#server/db/schema.ts';
import { newRecordId, newRecordStamps, type Author } from '#server/db/record-id.ts';
import { clientPasswordPlace, credentialPlace, type SecretBox } from '#server/secrets.ts';

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
 * `joinedPassword` can open the secret. Kept out of the client list's query: it reads no secret.
 */
export const CREDENTIAL_SECRET_COLUMNS = [
  'credential.id as credentialId',
  'credential.secret as credentialSecret',
  'credential.sealedForClient as credentialSealedForClient',
] as const;

/** A row of a query joined to `credential` (all null when nothing was joined). */
export interface JoinedCredential {
  credentialId: string | null;
  credentialKind: CredentialKind | null;
  credentialSecret: string | null;
  credentialSealedForClient: string | null;
}

/** The joined credential's password in clear; null when it is not a password credential. */
export function joinedPassword(box: SecretBox, row: JoinedCredential): string | null {
  if (row.credentialKind !== 'password' || row.credentialId === null) return null;
  if (row.credentialSecret === null) return null;
  return openCredential(box, {
    id: row.credentialId,
    secret: row.credentialSecret,
    sealedForClient: row.credentialSealedForClient,
  });
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
