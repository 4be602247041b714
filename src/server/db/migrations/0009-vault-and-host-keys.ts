import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * What the vault and host-key acceptance need:
 * - an event may be about a credential, which belongs to no client: `event.clientId` may be
 *   null and `event.credentialId` names the credential;
 * - a pasted SSH key's passphrase is kept (sealed) beside the key, so a check can use the key;
 * - a server keeps the host key its last check was offered when it differs from the pinned
 *   one, so a person accepts exactly the key they were shown.
 */
export function vaultAndHostKeys(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('credential').addColumn('passphrase', 'text').execute();
      await db.schema.alterTable('server').addColumn('offeredHostKeyAlgorithm', 'text').execute();
      await db.schema.alterTable('server').addColumn('offeredHostKeyFingerprint', 'text').execute();

      if (dialect === 'postgres') {
        await db.schema
          .alterTable('event')
          .alterColumn('clientId', (c) => c.dropNotNull())
          .execute();
        await db.schema.alterTable('event').addColumn('credentialId', 'text').execute();
      } else {
        await rebuildSqliteEvent(db);
      }
      await db.schema
        .createIndex('event_credentialId_idx')
        .on('event')
        .columns(['credentialId', 'seq'])
        .where('credentialId', 'is not', null)
        .execute();
    },
  };
}

/**
 * SQLite cannot drop a NOT NULL constraint: the table is made again with the same rows and
 * numbers, and its AUTOINCREMENT counter is carried over so no number is ever given twice.
 */
async function rebuildSqliteEvent(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes('sqlite');
  const counter = await sql<{
    seq: number;
  }>`select "seq" from "sqlite_sequence" where "name" = 'event'`.execute(db);
  await db.schema
    .createTable('event_rebuilt')
    .addColumn('seq', t.serial, (c) => c.primaryKey().autoIncrement())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('clientId', 'text')
    .addColumn('actorId', 'text')
    .addColumn('actorName', 'text', (c) => c.notNull())
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    // In the order PostgreSQL has them after its two added columns: a copy between the
    // databases compares rows column by column.
    .addColumn('serverId', 'text')
    .addColumn('credentialId', 'text')
    .execute();
  await sql`insert into "event_rebuilt" ("seq", "kind", "clientId", "serverId", "actorId", "actorName", "at", "fields")
    select "seq", "kind", "clientId", "serverId", "actorId", "actorName", "at", "fields" from "event"`.execute(
    db,
  );
  await db.schema.dropTable('event').execute();
  await db.schema.alterTable('event_rebuilt').renameTo('event').execute();
  const last = counter.rows[0]?.seq;
  if (last !== undefined) {
    await sql`delete from "sqlite_sequence" where "name" = 'event'`.execute(db);
    await sql`insert into "sqlite_sequence" ("name", "seq") values ('event', ${last})`.execute(db);
  }
  await db.schema
    .createIndex('event_clientId_idx')
    .on('event')
    .columns(['clientId', 'seq'])
    .execute();
  await db.schema
    .createIndex('event_serverId_idx')
    .on('event')
    .columns(['serverId', 'seq'])
    .where('serverId', 'is not', null)
    .execute();
}
