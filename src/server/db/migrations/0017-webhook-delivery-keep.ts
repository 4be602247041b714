import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The outbox deletes finished deliveries a while after their last attempt
 * (realtime/webhook-outbox.ts, KEEP_FINISHED_MS), a batch at a time: this index finds each batch
 * without reading the whole table, so a batch stays a short transaction however large it is.
 */
export function webhookDeliveryKeep(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('webhookDelivery_finished_idx')
        .on('webhookDelivery')
        .columns(['status', 'lastAttemptAt'])
        .execute();
    },
  };
}
