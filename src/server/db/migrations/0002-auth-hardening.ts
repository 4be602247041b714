import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Operators can disable a user (`npm run user -- disable`); their sessions stop at once.
 * Auth rate limits are counted in the database, so every instance sees the same counts.
 */
export function authHardening(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('user')
        .addColumn('disabled', t.boolean, (c) =>
          c.notNull().defaultTo(dialect === 'postgres' ? sql`false` : 0),
        )
        .execute();
      await db.schema
        .createTable('rateLimit')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('lastRequest', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
