import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import {
  clientPasswordPlace,
  credentialPassphrasePlace,
  credentialPlace,
  deployTokenPlace,
  webhookSecretPlace,
  type SealedPlace,
} from './secrets.ts';

/** A value the app sealed itself (SecretBox), as one row stores it. */
export interface StoredSecret {
  sealed: string;
  /** Where it is sealed now. */
  from: SealedPlace;
  /** Where it belongs: a client's password that migration 0007 moved into a credential. */
  to: SealedPlace;
  what: string;
}

/** One row's sealed values (null: a column left empty), and how to store them sealed anew. */
export interface SealedRow {
  secrets: (StoredSecret | null)[];
  /** Writes each value given in the order of `secrets`; null keeps that column as it is. */
  store(db: Kysely<Database>, resealed: (string | null)[]): Promise<void>;
}

/**
 * Every table whose values the app seals itself, each read as its rows' sealed values (at most
 * `limit` rows). The one list that rotating SECRET_KEY, re-sealing older values and checking
 * the key at start go through, so a new sealed column is added once.
 */
export const SEALED_TABLES = {
  async credentials(db: Kysely<Database>, limit?: number): Promise<SealedRow[]> {
    let query = db
      .selectFrom('credential')
      .select(['id', 'secret', 'sealedForClient', 'passphrase'])
      .orderBy('id');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map((row) => {
      const to = credentialPlace(row.id);
      const from = row.sealedForClient === null ? to : clientPasswordPlace(row.sealedForClient);
      // A key's passphrase was always sealed at its own place (keys came after migration 0007).
      const passphrasePlace = credentialPassphrasePlace(row.id);
      return {
        secrets: [
          { sealed: row.secret, from, to, what: `the secret of credential ${row.id}` },
          row.passphrase === null
            ? null
            : {
                sealed: row.passphrase,
                from: passphrasePlace,
                to: passphrasePlace,
                what: `the passphrase of credential ${row.id}`,
              },
        ],
        async store(trx, [secret, passphrase]) {
          await trx
            .updateTable('credential')
            .set({
              ...(secret ? { secret, sealedForClient: null } : {}),
              ...(passphrase ? { passphrase } : {}),
            })
            .where('id', '=', row.id)
            .execute();
        },
      };
    });
  },

  async deployTokens(db: Kysely<Database>, limit?: number): Promise<SealedRow[]> {
    let query = db.selectFrom('deployToken').select(['userId', 'token']).orderBy('userId');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map((row) => {
      const place = deployTokenPlace(row.userId);
      const what = `the deploy token of user ${row.userId}`;
      return {
        secrets: [{ sealed: row.token, from: place, to: place, what }],
        async store(trx, [token]) {
          if (!token) return;
          await trx
            .updateTable('deployToken')
            .set({ token })
            .where('userId', '=', row.userId)
            .execute();
        },
      };
    });
  },

  async webhooks(db: Kysely<Database>, limit?: number): Promise<SealedRow[]> {
    let query = db.selectFrom('webhook').select(['id', 'secret']).orderBy('id');
    if (limit !== undefined) query = query.limit(limit);
    return (await query.execute()).map((row) => {
      const place = webhookSecretPlace(row.id);
      const what = `the signing secret of webhook ${row.id}`;
      return {
        secrets: [{ sealed: row.secret, from: place, to: place, what }],
        async store(trx, [secret]) {
          if (!secret) return;
          await trx.updateTable('webhook').set({ secret }).where('id', '=', row.id).execute();
        },
      };
    });
  },
};

export type SealedCounts = Record<keyof typeof SEALED_TABLES, number>;
