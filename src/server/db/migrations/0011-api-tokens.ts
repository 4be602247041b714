import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Personal API tokens (features/tokens): the SHA-256 of each token, never the token, with its
 * owner, scope, lifetime, last use and the per-token rate limit's counter. A person's tokens go
 * with the person.
 */
export function apiTokens(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('apiToken')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('expiresAt', t.timestamp)
        .addColumn('lastUsedAt', t.timestamp)
        .addColumn('windowStartedAt', t.timestamp)
        .addColumn('windowCount', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('apiToken_userId_idx').on('apiToken').column('userId').execute();
    },
  };
}
