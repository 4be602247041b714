import path from 'node:path';
import type { Kysely } from 'kysely';
import { symmetricDecrypt } from 'better-auth/crypto';
import { ConfigError, type Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Database } from './db/schema.ts';
import { SEALED_TABLES } from './sealed-tables.ts';
import { SecretBox, betterAuthSecret, readSecretKey, resolveSecretKey } from './secrets.ts';

/** One value stored sealed with the key: what it is, and whether a key opens it. */
interface SealedSample {
  what: string;
  opensWith(secretKey: string): Promise<boolean>;
}

/**
 * The key of this installation, for the server and every command that reads or writes sealed
 * values: SECRET_KEY, else DATA_DIR/secret.key, made only when the database holds nothing
 * sealed yet. A database that holds sealed values and no key to go with it (a restore into a
 * new folder without its secret.key, a command run from a shell without SECRET_KEY) is refused:
 * a new key would seal new values beside ones it can never open. So is a key that does not
 * open one of the stored values (one row is read). Refusals are ConfigErrors: one line, exit 1.
 */
export async function secretKeyFor(
  db: Db,
  config: Pick<Config, 'secretKey' | 'dataDir'>,
): Promise<string> {
  const file = path.join(config.dataDir, 'secret.key');
  const kept = readSecretKey(config.secretKey, config.dataDir);
  const sample = await sealedSample(db.kysely);
  if (kept === undefined) {
    if (sample) {
      throw new ConfigError(
        `This database holds secrets sealed with a key, but SECRET_KEY is not set and ${file} does not exist: set SECRET_KEY to that key, or copy the secret.key of the installation this database comes from into ${config.dataDir}. No new key was made (it could never open them).`,
      );
    }
    return resolveSecretKey(undefined, config.dataDir);
  }
  if (sample && !(await sample.opensWith(kept))) {
    const source = config.secretKey ? 'SECRET_KEY' : `The key in ${file}`;
    throw new ConfigError(
      `${source} does not open the secrets stored in this database (${sample.what}): use the key they were sealed with (SECRET_KEY, or the secret.key of the installation this database comes from).`,
    );
  }
  return kept;
}

/** The first sealed value found, checking one row of each table that holds them, in turn. */
async function sealedSample(db: Kysely<Database>): Promise<SealedSample | undefined> {
  for (const rowsOf of Object.values(SEALED_TABLES)) {
    const [row] = await rowsOf(db, 1);
    const secret = row?.secrets.find((value) => value !== null);
    if (secret) {
      return {
        what: secret.what,
        opensWith: (secretKey) => {
          try {
            new SecretBox(secretKey).open(secret.sealed, secret.from);
            return Promise.resolve(true);
          } catch {
            return Promise.resolve(false);
          }
        },
      };
    }
  }
  // Better Auth's twoFactor plugin encrypts an authenticator's secret with its own secret,
  // which is derived from SECRET_KEY.
  const twoFactor = await db
    .selectFrom('twoFactor')
    .select(['userId', 'secret'])
    .where('secret', '<>', '')
    .limit(1)
    .executeTakeFirst();
  if (twoFactor) {
    return {
      what: `the authenticator secret of user ${twoFactor.userId}`,
      opensWith: (secretKey) =>
        symmetricDecrypt({ key: betterAuthSecret(secretKey), data: twoFactor.secret }).then(
          () => true,
          () => false,
        ),
    };
  }
  return undefined;
}
