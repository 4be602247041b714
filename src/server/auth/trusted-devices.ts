import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/**
 * Better Auth's twoFactor plugin remembers a browser that chose 'trust this device' as a
 * verification row (identifier `trust-device-…`, value the user's id); its cookie alone is not
 * enough. Its own routes forget them when the person turns codes off, but an administrator's
 * reset deletes the factor's rows directly: without this, every browser trusted before would
 * skip the code for up to 30 days once the person set up codes again.
 */
export async function forgetTrustedDevices(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('verification')
    .where('identifier', 'like', 'trust-device-%')
    .where('value', '=', userId)
    .execute();
}
