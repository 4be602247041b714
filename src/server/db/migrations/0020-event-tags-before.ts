import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A change of a client's tags keeps the tags it had before on its event, so that only the
 * people limited by tag who could see the client until then are told to reload their lists.
 */
export function eventTagsBefore(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('event').addColumn('tagsBefore', 'text').execute();
    },
  };
}
