import type { Kysely, Transaction } from 'kysely';
import type { Database } from './db/schema.ts';
import { SecretBox, clientPasswordPlace, deployTokenPlace, type SealedPlace } from './secrets.ts';

export class RotationError extends Error {
  override name = 'RotationError';
}

export interface RotationReport {
  /** Secrets re-sealed under the new key, per table. */
  resealed: { clients: number; deletedClients: number; deployTokens: number };
  /** Secrets that the new key opens already (a second run after a finished one). */
  alreadyNew: number;
}

/**
 * Re-seals every stored secret (client server passwords, those of deleted clients kept for
 * undo, users' deploy tokens) from the previous SECRET_KEY to the new one, in one transaction:
 * either all of them move to the new key or none does. A secret the previous key cannot open
 * but the new one can is left as it is, so running the command twice is harmless; one that
 * neither opens stops the rotation, naming the row, and nothing is changed.
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
  const report: RotationReport = {
    resealed: { clients: 0, deletedClients: 0, deployTokens: 0 },
    alreadyNew: 0,
  };

  /** The secret sealed under the new key, or null when it is sealed under it already. */
  const reseal = (sealed: string, place: SealedPlace, what: string): string | null => {
    let plain: string;
    try {
      plain = previous.open(sealed, place);
    } catch {
      try {
        next.open(sealed, place);
      } catch {
        throw new RotationError(
          `${what} opens with neither SECRET_KEY_PREVIOUS nor SECRET_KEY: nothing was changed. Check SECRET_KEY_PREVIOUS.`,
        );
      }
      report.alreadyNew += 1;
      return null;
    }
    return next.seal(plain, place);
  };

  await db.transaction().execute(async (trx) => {
    const counts = await resealEach(trx, reseal);
    report.resealed = counts;
  });
  return report;
}

type SealedTable = 'client' | 'deletedClient' | 'deployToken';
const LABELS: Record<SealedTable, string> = {
  client: 'The password of client',
  deletedClient: 'The password of deleted client',
  deployToken: 'The deploy token of user',
};

/**
 * Passes every stored secret (client passwords, those of deleted clients kept for undo, users'
 * deploy tokens) through `reseal` inside the caller's transaction, and stores what it returns
 * (null: keep it). Returns how many changed, per table.
 */
async function resealEach(
  trx: Transaction<Database>,
  reseal: (sealed: string, place: SealedPlace, what: string) => string | null,
): Promise<RotationReport['resealed']> {
  const counts = { clients: 0, deletedClients: 0, deployTokens: 0 };
  for (const table of ['client', 'deletedClient'] as const) {
    const rows = await trx
      .selectFrom(table)
      .select(['id', 'serverPassword'])
      .where('serverPassword', 'is not', null)
      .execute();
    for (const row of rows) {
      const sealed = reseal(
        row.serverPassword!,
        clientPasswordPlace(row.id),
        `${LABELS[table]} ${row.id}`,
      );
      if (sealed === null) continue;
      await trx
        .updateTable(table)
        .set({ serverPassword: sealed })
        .where('id', '=', row.id)
        .execute();
      if (table === 'client') counts.clients += 1;
      else counts.deletedClients += 1;
    }
  }
  const tokens = await trx.selectFrom('deployToken').select(['userId', 'token']).execute();
  for (const row of tokens) {
    const sealed = reseal(
      row.token,
      deployTokenPlace(row.userId),
      `${LABELS.deployToken} ${row.userId}`,
    );
    if (sealed === null) continue;
    await trx
      .updateTable('deployToken')
      .set({ token: sealed })
      .where('userId', '=', row.userId)
      .execute();
    counts.deployTokens += 1;
  }
  return counts;
}

/**
 * Re-seals, under the same key, the secrets stored before each sealed value was bound to its
 * place (`v1.`), so that every value is bound to its row. Run at every start, in one
 * transaction; after the first it finds nothing. Returns how many it re-sealed.
 */
export async function resealLegacySecrets(db: Kysely<Database>, box: SecretBox): Promise<number> {
  const counts = await db
    .transaction()
    .execute((trx) =>
      resealEach(trx, (sealed, place) =>
        SecretBox.isLegacy(sealed) ? box.seal(box.open(sealed, place), place) : null,
      ),
    );
  return counts.clients + counts.deletedClients + counts.deployTokens;
}
