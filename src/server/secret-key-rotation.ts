import type { Kysely, Transaction } from 'kysely';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';
import type { Database } from './db/schema.ts';
import {
  SecretBox,
  betterAuthSecret,
  clientPasswordPlace,
  credentialPassphrasePlace,
  credentialPlace,
  deployTokenPlace,
  webhookSecretPlace,
  type SealedPlace,
} from './secrets.ts';

export class RotationError extends Error {
  override name = 'RotationError';
}

/** Rows whose values the app seals itself (SecretBox), per table. */
interface SealedCounts {
  credentials: number;
  deployTokens: number;
  webhooks: number;
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

/** A stored secret: where it is sealed now, and where it belongs. */
interface StoredSecret {
  sealed: string;
  from: SealedPlace;
  to: SealedPlace;
  what: string;
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
          `${what} opens with neither SECRET_KEY_PREVIOUS nor SECRET_KEY: nothing was changed. Check SECRET_KEY_PREVIOUS.`,
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
          `${what} opens with neither SECRET_KEY_PREVIOUS nor SECRET_KEY: nothing was changed. Check SECRET_KEY_PREVIOUS.`,
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
      ? await reencrypt(row.secret, `The authenticator secret of user ${row.userId}`)
      : null;
    const backupCodes = row.backupCodes
      ? await reencrypt(row.backupCodes, `The backup codes of user ${row.userId}`)
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
 * it returns at the place the secret belongs (null: keep it). Returns how many changed.
 */
async function resealEach(
  trx: Transaction<Database>,
  reseal: (secret: StoredSecret) => string | null,
): Promise<SealedCounts> {
  const counts = { credentials: 0, deployTokens: 0, webhooks: 0 };
  const credentials = await trx
    .selectFrom('credential')
    .select(['id', 'secret', 'sealedForClient', 'passphrase'])
    .execute();
  for (const row of credentials) {
    const to = credentialPlace(row.id);
    const from = row.sealedForClient === null ? to : clientPasswordPlace(row.sealedForClient);
    const sealed = reseal({
      sealed: row.secret,
      from,
      to,
      what: `The secret of credential ${row.id}`,
    });
    // A key's passphrase was always sealed at its own place (keys came after migration 0007).
    const passphrasePlace = credentialPassphrasePlace(row.id);
    const passphrase =
      row.passphrase === null
        ? null
        : reseal({
            sealed: row.passphrase,
            from: passphrasePlace,
            to: passphrasePlace,
            what: `The passphrase of credential ${row.id}`,
          });
    if (sealed === null && passphrase === null) continue;
    await trx
      .updateTable('credential')
      .set({
        ...(sealed === null ? {} : { secret: sealed, sealedForClient: null }),
        ...(passphrase === null ? {} : { passphrase }),
      })
      .where('id', '=', row.id)
      .execute();
    counts.credentials += 1;
  }
  const tokens = await trx.selectFrom('deployToken').select(['userId', 'token']).execute();
  for (const row of tokens) {
    const place = deployTokenPlace(row.userId);
    const what = `The deploy token of user ${row.userId}`;
    const sealed = reseal({ sealed: row.token, from: place, to: place, what });
    if (sealed === null) continue;
    await trx
      .updateTable('deployToken')
      .set({ token: sealed })
      .where('userId', '=', row.userId)
      .execute();
    counts.deployTokens += 1;
  }
  const webhooks = await trx.selectFrom('webhook').select(['id', 'secret']).execute();
  for (const row of webhooks) {
    const place = webhookSecretPlace(row.id);
    const what = `The signing secret of webhook ${row.id}`;
    const sealed = reseal({ sealed: row.secret, from: place, to: place, what });
    if (sealed === null) continue;
    await trx.updateTable('webhook').set({ secret: sealed }).where('id', '=', row.id).execute();
    counts.webhooks += 1;
  }
  return counts;
}

/**
 * Re-seals, under the same key, each secret not yet sealed at its own place: those stored
 * before sealed values were bound to their place (`v1.`), and passwords that migration 0007
 * moved from clients into credentials. Run at every start, in one transaction; after the first
 * it finds nothing. Returns how many it re-sealed.
 */
export async function resealLegacySecrets(db: Kysely<Database>, box: SecretBox): Promise<number> {
  const counts = await db
    .transaction()
    .execute((trx) =>
      resealEach(trx, ({ sealed, from, to }) =>
        SecretBox.isLegacy(sealed) || from !== to ? box.seal(box.open(sealed, from), to) : null,
      ),
    );
  return counts.credentials + counts.deployTokens + counts.webhooks;
}
