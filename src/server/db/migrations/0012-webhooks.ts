import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '#server/db/database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Webhooks: the endpoints administrators add, and the deliveries made to them from the event
 * log (realtime/webhook-outbox.ts).
 *
 * - `webhook.cursor`: the last event sequence number the endpoint has been given deliveries
 *   for (an outbox cursor); a new endpoint starts at the log's head.
 * - `webhook.secret`: the signing secret, sealed at the endpoint's place (secrets.ts).
 * - `webhookDelivery`: one event for one endpoint, with its latest attempt. Deleting an
 *   endpoint deletes its deliveries.
 * - `event.webhookId`: the endpoint a `webhook.*` event (the audit trail) is about.
 */
export function webhooks(dialect: Dialect): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('enabled', t.boolean, (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('cursor', 'bigint', (c) => c.notNull())
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
        .addColumn('createdById', 'text', (c) => c.references('user.id').onDelete('set null'))
        .execute();

      await db.schema
        .createTable('webhookDelivery')
        .addColumn('id', 'text', (c) => c.primaryKey().notNull())
        .addColumn('webhookId', 'text', (c) =>
          c.notNull().references('webhook.id').onDelete('cascade'),
        )
        .addColumn('eventSeq', 'bigint', (c) => c.notNull())
        .addColumn('eventKind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('responseCode', 'integer')
        .addColumn('error', 'text')
        .addColumn('createdAt', t.timestamp, (c) => c.notNull())
        .addColumn('firstAttemptAt', t.timestamp)
        .addColumn('lastAttemptAt', t.timestamp)
        .addColumn('nextAttemptAt', t.timestamp)
        .addColumn('deliveredAt', t.timestamp)
        .execute();
      // The outbox's queue per endpoint (oldest pending first), and its page of history.
      await db.schema
        .createIndex('webhookDelivery_queue_idx')
        .on('webhookDelivery')
        .columns(['webhookId', 'status', 'createdAt', 'eventSeq'])
        .execute();
      await db.schema
        .createIndex('webhookDelivery_history_idx')
        .on('webhookDelivery')
        .columns(['webhookId', 'createdAt', 'id'])
        .execute();

      await db.schema.alterTable('event').addColumn('webhookId', 'text').execute();
    },
  };
}
