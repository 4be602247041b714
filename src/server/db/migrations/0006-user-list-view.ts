import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * How each person sees the client list, the list or the table: kept on the user (a Better Auth
 * additional field, auth.ts), so it follows them to every browser they sign in from.
 */
export function userListView(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('user')
        .addColumn('listView', 'text', (c) => c.notNull().defaultTo('list'))
        .execute();
    },
  };
}
