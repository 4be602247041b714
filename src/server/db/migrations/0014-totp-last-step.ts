import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * `twoFactor.lastUsedStep`: the 30-second step of the last authenticator code accepted for the
 * person, so no code is accepted twice (auth/one-use-codes.ts). Null until a code is used.
 */
export function totpLastStep(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('twoFactor').addColumn('lastUsedStep', 'integer').execute();
    },
  };
}
