import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The client list is read in creation order (`order by createdAt, id`): with this index both
 * databases walk it in that order instead of sorting every client on each read of the list.
 */
export function clientListOrder(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('client_createdAt_id_idx')
        .on('client')
        .columns(['createdAt', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('client_createdAt_id_idx').execute();
    },
  };
}
