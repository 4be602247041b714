import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Better Auth now stores a password reset's identifier (`reset-password:<token>`) as its
 * SHA-256 in base64url (auth.ts, `verification.storeIdentifier`). Those stored before in plain
 * text are hashed the same way, so a backup taken after the upgrade holds no reset token, and a
 * link mailed before it still works.
 */
export function hashedResetTokens(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const { rows } = await sql<{ id: string; identifier: string }>`
        select "id", "identifier" from "verification" where "identifier" like 'reset-password:%'
      `.execute(db);
      for (const row of rows) {
        const hashed = createHash('sha256').update(row.identifier).digest('base64url');
        await sql`update "verification" set "identifier" = ${hashed} where "id" = ${row.id}`.execute(
          db,
        );
      }
    },
  };
}
