import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Empties the provider tokens earlier versions kept in `account` (auth/provider-tokens.ts now
 * keeps none): a backup taken after the upgrade holds no key to anyone's provider account.
 */
export function noProviderTokens(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`
        update "account" set
          "accessToken" = null, "refreshToken" = null, "idToken" = null,
          "accessTokenExpiresAt" = null, "refreshTokenExpiresAt" = null
        where "accessToken" is not null or "refreshToken" is not null or "idToken" is not null
      `.execute(db);
    },
  };
}
