import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * An event about one of a client's servers (`server.*`) names that server beside its client, so
 * the client's history shows it and a server's own history can be read by it.
 */
export function eventServer(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('event').addColumn('serverId', 'text').execute();
      await db.schema
        .createIndex('event_serverId_idx')
        .on('event')
        .columns(['serverId', 'seq'])
        .where('serverId', 'is not', null)
        .execute();
    },
  };
}
