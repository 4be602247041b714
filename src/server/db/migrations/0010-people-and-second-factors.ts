import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Roles, access by tag, second factors and invitations.
 *
 * - `user.role`: everyone who signed in before roles existed keeps what they could do (editor),
 *   and the oldest account becomes the admin, so someone can manage the others.
 * - `user.tags`: null, every client, for everyone until an admin limits them.
 * - `twoFactor` and `passkey` have the columns and types Better Auth's plugins expect.
 * - `event.personId`: the person a `person.*` event (the audit trail) is about.
 */
export function peopleAndSecondFactors(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  const no = dialect === 'postgres' ? sql`false` : sql`0`;
  const yes = dialect === 'postgres' ? sql`true` : sql`1`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('user')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('editor'))
        .execute();
      await db.schema.alterTable('user').addColumn('tags', 'text').execute();
      await db.schema.alterTable('user').addColumn('lastSignInAt', t.timestamp).execute();
      await db.schema
        .alterTable('user')
        .addColumn('twoFactorEnabled', t.boolean, (c) => c.notNull().defaultTo(no))
        .execute();
      await sql`update "user" set "role" = 'admin' where "id" = (
        select "id" from "user" order by "createdAt", "id" limit 1)`.execute(db);

      await db.schema
        .createTable('twoFactor')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('backupCodes', 'text', (c) => c.notNull())
        .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('verified', t.boolean, (c) => c.notNull().defaultTo(yes))
        .addColumn('failedVerificationCount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lockedUntil', t.timestamp)
        .execute();
      await db.schema
        .createIndex('twoFactor_userId_idx')
        .on('twoFactor')
        .column('userId')
        .execute();
      await db.schema
        .createIndex('twoFactor_secret_idx')
        .on('twoFactor')
        .column('secret')
        .execute();

      await db.schema
        .createTable('passkey')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('name', 'text')
        .addColumn('publicKey', 'text', (c) => c.notNull())
        .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('credentialID', 'text', (c) => c.notNull())
        .addColumn('counter', 'integer', (c) => c.notNull())
        .addColumn('deviceType', 'text', (c) => c.notNull())
        .addColumn('backedUp', t.boolean, (c) => c.notNull())
        .addColumn('transports', 'text')
        .addColumn('createdAt', t.timestamp)
        .addColumn('aaguid', 'text')
        .execute();
      await db.schema.createIndex('passkey_userId_idx').on('passkey').column('userId').execute();
      await db.schema
        .createIndex('passkey_credentialID_idx')
        .on('passkey')
        .column('credentialID')
        .execute();

      await db.schema
        .createTable('invitation')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('tags', 'text')
        .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
        .addColumn('invitedById', 'text', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('expiresAt', t.timestamp, (c) => c.notNull())
        .addColumn('acceptedAt', t.timestamp)
        .execute();
      await db.schema
        .createIndex('invitation_email_idx')
        .on('invitation')
        .column('email')
        .execute();

      await db.schema.alterTable('event').addColumn('personId', 'text').execute();
      await db.schema
        .createIndex('event_personId_idx')
        .on('event')
        .columns(['personId', 'seq'])
        .where('personId', 'is not', null)
        .execute();
    },
  };
}
