import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Lifts the tag limit of administrators and of invitations to be one: an administrator manages
 * people, their own limit included, and the webhooks and audit trail that cover every client,
 * so a limit on one never held (`ADMIN_TAGS_MESSAGE` in shared/people.ts). Nothing they could
 * not already see or do changes; the People screen then shows what is true.
 */
export function adminsWithoutTags(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['user', 'invitation']) {
        await sql`
          update ${sql.table(table)} set "tags" = null
          where "role" = 'admin' and "tags" is not null
        `.execute(db);
      }
    },
  };
}
