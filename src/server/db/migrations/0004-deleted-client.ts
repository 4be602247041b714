import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * A deleted client's last row, kept so the delete can be undone with the same id, version and
 * history (`POST /api/clients/:id/restore`). The password stays sealed. No foreign keys: the
 * snapshot must survive whatever happens to users meanwhile.
 */
export function deletedClient(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('deletedClient')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('startDate', 'text', (c) => c.notNull())
        .addColumn('serverHost', 'text', (c) => c.notNull())
        .addColumn('serverPort', 'integer', (c) => c.notNull())
        .addColumn('serverUsername', 'text', (c) => c.notNull())
        .addColumn('serverPassword', 'text')
        .addColumn('serverPrivate', t.boolean, (c) => c.notNull())
        .addColumn('serverUiDir', 'text', (c) => c.notNull())
        .addColumn('domains', 'text', (c) => c.notNull())
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('createdBy', 'text')
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedBy', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('deletedAt', t.timestamp, (c) => c.notNull())
        .addColumn('deletedBy', 'text')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('deletedClient').execute();
    },
  };
}
