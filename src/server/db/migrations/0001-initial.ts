import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/** Better Auth's core tables, the clients, the event log and the users' deploy tokens. */
export function initial(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('emailVerified', t.boolean, (c) => c.notNull())
        .addColumn('image', 'text')
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('session')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('expiresAt', t.timestamp, (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull().unique())
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('ipAddress', 'text')
        .addColumn('userAgent', 'text')
        .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('session_userId_idx').on('session').column('userId').execute();

      await db.schema
        .createTable('account')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('accountId', 'text', (c) => c.notNull())
        .addColumn('providerId', 'text', (c) => c.notNull())
        .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('accessToken', 'text')
        .addColumn('refreshToken', 'text')
        .addColumn('idToken', 'text')
        .addColumn('accessTokenExpiresAt', t.timestamp)
        .addColumn('refreshTokenExpiresAt', t.timestamp)
        .addColumn('scope', 'text')
        .addColumn('password', 'text')
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('account_userId_idx').on('account').column('userId').execute();

      await db.schema
        .createTable('verification')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('expiresAt', t.timestamp, (c) => c.notNull())
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('verification_identifier_idx')
        .on('verification')
        .column('identifier')
        .execute();

      await db.schema
        .createTable('client')
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
        .addColumn('createdBy', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedBy', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();

      // Append-only: the live feed, the cross-instance feed and the audit trail at once.
      // No foreign key to client: the history of a deleted client stays.
      await db.schema
        .createTable('event')
        .addColumn('seq', t.serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('clientId', 'text', (c) => c.notNull())
        .addColumn('actorId', 'text')
        .addColumn('actorName', 'text', (c) => c.notNull())
        .addColumn('at', t.timestamp, (c) => c.notNull())
        .addColumn('fields', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('event_clientId_idx')
        .on('event')
        .columns(['clientId', 'seq'])
        .execute();

      await db.schema
        .createTable('deployToken')
        .addColumn('userId', 'text', (c) =>
          c.primaryKey().notNull().references('user.id').onDelete('cascade'),
        )
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .execute();
    },
  };
}
