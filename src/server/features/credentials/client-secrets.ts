import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import { openCredentialSecret } from './credential-secrets.ts';

/**
 * Every secret a client's servers were given and could say back: each value of the credentials
 * they use (the client's password among them), and each key's passphrase. What a run's log and
 * reason, and a check's reason, are masked against.
 */
export async function clientSecrets(db: Db, box: SecretBox, clientId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('credential')
    .select(['id', 'secret', 'sealedForClient', 'passphrase'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('server')
        .select('server.credentialId')
        .where('server.clientId', '=', clientId)
        .where('server.credentialId', 'is not', null),
    )
    .execute();
  return rows.flatMap((row) => {
    const { secret, passphrase } = openCredentialSecret(box, row);
    return passphrase === null ? [secret] : [secret, passphrase];
  });
}
