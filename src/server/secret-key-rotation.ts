import type { Kysely, Transaction } from 'kysely';
import type { Database } from './db/schema.ts';
import { SecretBox } from './secrets.ts';

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
  const reseal = (sealed: string, what: string): string | null => {
    let plain: string;
    try {
      plain = previous.open(sealed);
    } catch {
      try {
        next.open(sealed);
      } catch {
        throw new RotationError(
          `${what} opens with neither SECRET_KEY_PREVIOUS nor SECRET_KEY: nothing was changed. Check SECRET_KEY_PREVIOUS.`,
        );
      }
      report.alreadyNew += 1;
      return null;
    }
    return next.seal(plain);
  };

  await db.transaction().execute(async (trx: Transaction<Database>) => {
    for (const table of ['client', 'deletedClient'] as const) {
      const rows = await trx
        .selectFrom(table)
        .select(['id', 'serverPassword'])
        .where('serverPassword', 'is not', null)
        .execute();
      for (const row of rows) {
        const label = table === 'client' ? 'client' : 'deleted client';
        const sealed = reseal(row.serverPassword!, `The password of ${label} ${row.id}`);
        if (sealed === null) continue;
        await trx
          .updateTable(table)
          .set({ serverPassword: sealed })
          .where('id', '=', row.id)
          .execute();
        if (table === 'client') report.resealed.clients += 1;
        else report.resealed.deletedClients += 1;
      }
    }
    const tokens = await trx.selectFrom('deployToken').select(['userId', 'token']).execute();
    for (const row of tokens) {
      const sealed = reseal(row.token, `The deploy token of user ${row.userId}`);
      if (sealed === null) continue;
      await trx
        .updateTable('deployToken')
        .set({ token: sealed })
        .where('userId', '=', row.userId)
        .execute();
      report.resealed.deployTokens += 1;
    }
  });
  return report;
}
