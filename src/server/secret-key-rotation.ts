import type { Kysely, Transaction } from 'kysely';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import type { Database } from './db/schema.ts';
import { SEALED_TABLES, type SealedCounts, type StoredSecret } from './sealed-tables.ts';
import { SecretBox, betterAuthSecret } from './secrets.ts';
import { ConfigError } from './config.ts';

export class RotationError extends Error {
  override name = 'RotationError';
}

export interface RotationReport {
  /**
   * Rows re-sealed under the new key, per table; `twoFactors`: people whose authenticator
   * secret and backup codes Better Auth's twoFactor plugin keeps encrypted.
   */
  resealed: SealedCounts & { twoFactors: number };
  /** Secrets that the new key opens already (a second run after a finished one). */
  alreadyNew: number;
  /** Sessions deleted: their cookies were signed with the old key, which nothing checks now. */
  sessionsEnded: number;
}

/**
 * Re-seals every stored secret (the vault's credentials, users' deploy tokens, webhook
 * endpoints' signing secrets, and the authenticator secrets and backup codes Better Auth
 * encrypts with the secret derived from SECRET_KEY) from the previous SECRET_KEY to the new
 * one, in one transaction: either all of them move to the new key or none does. A secret the
 * previous key cannot open but the new one can is left as it is, so running the command twice
 * is harmless; one that neither opens stops the rotation, naming the row, and nothing is
 * changed. The same transaction deletes every session: its cookie is signed with the old key,
 * so it could not be used again, and a copy of the database taken before (with the old key)
 * would hold the tokens of sessions still listed as signed in.
 */
export async function rotateSecretKey(
  db: Kysely<Database>,
  keys: { previous: string; next: string },
): Promise<RotationReport> {
  if (keys.previous === keys.next) {
    throw new RotationError('SECRET_KEY_PREVIOUS and SECRET_KEY are the same key.');
  }
  const previous = new SecretBox(keys.previous);
  const next = new SecretBox(keys.next);
  let alreadyNew = 0;

  /** The secret sealed under the new key, or null when it is sealed under it already. */
  const reseal = ({ sealed, from, to, what }: StoredSecret): string | null => {
    let plain: string;
    try {
      plain = previous.open(sealed, from);
    } catch {
      try {
        next.open(sealed, from);
      } catch {
        throw new RotationError(
          `Neither SECRET_KEY_PREVIOUS nor SECRET_KEY opens ${what}: nothing was changed. Check SECRET_KEY_PREVIOUS.`,
        );
      }
      alreadyNew += 1;
      return null;
    }
    return next.seal(plain, to);
  };

  const authSecrets = {
    previous: betterAuthSecret(keys.previous),
    next: betterAuthSecret(keys.next),
  };
  /** The same for a value Better Auth encrypted, with its own functions. */
  const reencrypt = async (data: string, what: string): Promise<string | null> => {
    let plain: string;
    try {
      plain = await symmetricDecrypt({ key: authSecrets.previous, data });
    } catch {
      try {
        await symmetricDecrypt({ key: authSecrets.next, data });
      } catch {
        throw new RotationError(
          `Neither SECRET_KEY_PREVIOUS nor SECRET_KEY opens ${what}: nothing was changed. Check SECRET_KEY_PREVIOUS.`,
        );
      }
      alreadyNew += 1;
      return null;
    }
    return symmetricEncrypt({ key: authSecrets.next, data: plain });
  };

  return db.transaction().execute(async (trx) => {
    const sealed = await resealEach(trx, reseal);
    const twoFactors = await reencryptTwoFactors(trx, reencrypt);
    const ended = await trx.deleteFrom('session').executeTakeFirst();
    return {
      resealed: { ...sealed, twoFactors },
      alreadyNew,
      sessionsEnded: Number(ended.numDeletedRows),
    };
  });
}

/**
 * Passes each person's authenticator secret and backup codes (Better Auth's twoFactor table)
 * through `reencrypt`, storing what it returns (null: keep it). Returns how many rows changed.
 */
async function reencryptTwoFactors(
  trx: Transaction<Database>,
  reencrypt: (data: string, what: string) => Promise<string | null>,
): Promise<number> {
  let count = 0;
  const rows = await trx
    .selectFrom('twoFactor')
    .select(['id', 'userId', 'secret', 'backupCodes'])
    .execute();
  for (const row of rows) {
    // An empty column holds nothing encrypted.
    const secret = row.secret
      ? await reencrypt(row.secret, `the authenticator secret of user ${row.userId}`)
      : null;
    const backupCodes = row.backupCodes
      ? await reencrypt(row.backupCodes, `the backup codes of user ${row.userId}`)
      : null;
    if (secret === null && backupCodes === null) continue;
    await trx
      .updateTable('twoFactor')
      .set({
        ...(secret === null ? {} : { secret }),
        ...(backupCodes === null ? {} : { backupCodes }),
      })
      .where('id', '=', row.id)
      .execute();
    count += 1;
  }
  return count;
}

/**
 * Passes every stored secret through `reseal` inside the caller's transaction, and stores what
 * it returns at the place the secret belongs (null: keep it). Returns how many rows changed.
 */
async function resealEach(
  trx: Transaction<Database>,
  reseal: (secret: StoredSecret) => string | null,
): Promise<SealedCounts> {
  const counts: SealedCounts = { credentials: 0, deployTokens: 0, webhooks: 0 };
  for (const table of Object.keys(SEALED_TABLES) as (keyof SealedCounts)[]) {
    for (const row of await SEALED_TABLES[table](trx)) {
      const resealed = row.secrets.map((secret) => (secret === null ? null : reseal(secret)));
      if (resealed.every((value) => value === null)) continue;
      await row.store(trx, resealed);
      counts[table] += 1;
    }
  }
  return counts;
}

/**
 * Opens every stored secret with the installation's key, and re-seals under it each one not yet
 * sealed at its own place: those stored before sealed values were bound to their place (`v1.`),
 * and passwords that migration 0007 moved from clients into credentials. Run at every start, in
 * one transaction; the re-sealing finds nothing after the first. Returns how many it re-sealed.
 *
 * secretKeyFor has checked the key on one stored value. One the key does not open beside it was
 * sealed under another key, most likely by a server left running with the previous key after
 * `npm run rotate-secret-key` (an authenticator set up there, too): a ConfigError names it and
 * what to do while the previous key is still at hand, and nothing is changed. Opening them all
 * costs about 40 ms for 10,000 values on one core, next to the rows this reads anyway.
 */
export async function openStoredSecrets(db: Kysely<Database>, secretKey: string): Promise<number> {
  const box = new SecretBox(secretKey);
  const counts = await db.transaction().execute((trx) =>
    resealEach(trx, ({ sealed, from, to, what }) => {
      let plain: string;
      try {
        plain = box.open(sealed, from);
      } catch {
        throw new ConfigError(sealedUnderAnotherKey(what));
      }
      return SecretBox.isLegacy(sealed) || from !== to ? box.seal(plain, to) : null;
    }),
  );
  const authSecret = betterAuthSecret(secretKey);
  const twoFactors = await db
    .selectFrom('twoFactor')
    .select(['userId', 'secret', 'backupCodes'])
    .execute();
  for (const row of twoFactors) {
    for (const [data, what] of [
      [row.secret, `the authenticator secret of user ${row.userId}`],
      [row.backupCodes, `the backup codes of user ${row.userId}`],
    ] as const) {
      // An empty column holds nothing encrypted.
      if (!data) continue;
      await symmetricDecrypt({ key: authSecret, data }).catch(() => {
        throw new ConfigError(sealedUnderAnotherKey(what));
      });
    }
  }
  return counts.credentials + counts.deployTokens + counts.webhooks;
}

function sealedUnderAnotherKey(what: string): string {
  return `SECRET_KEY does not open ${what} where it is stored. Sealed under another key, most likely by a server left running with the previous key after npm run rotate-secret-key: run that again with SECRET_KEY_PREVIOUS set to the previous key (it moves only what is still under it), then start. Nothing was changed.`;
}
