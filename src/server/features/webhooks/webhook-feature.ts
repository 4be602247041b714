import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import type { EventHub } from '#server/realtime/event-hub.ts';
import { WebhookOutbox, type WebhookTimings } from '#server/realtime/webhook-outbox.ts';
import { WebhookRepository } from './webhook-repository.ts';
import { registerWebhookRoutes } from './webhook-routes.ts';

/**
 * Webhooks put together for app.ts in one call: the outbox, woken by the hub whenever it reads
 * new events and stopped with the app, and the administrators' routes.
 */
export function registerWebhookFeature(
  app: FastifyInstance,
  deps: {
    db: Db;
    box: SecretBox;
    hub: EventHub;
    log: FastifyBaseLogger;
    allowPrivate: boolean;
    timings?: WebhookTimings;
  },
): WebhookOutbox {
  const { db, box, hub, log, allowPrivate } = deps;
  const outbox = new WebhookOutbox({
    db,
    box,
    log,
    allowPrivate,
    ...(deps.timings ? { timings: deps.timings } : {}),
  });
  hub.onNewEvents(() => outbox.wake());
  outbox.start();
  // Registered after the database's hook, so it runs first (Fastify closes in reverse).
  app.addHook('onClose', async () => outbox.close());
  registerWebhookRoutes(app, {
    webhooks: new WebhookRepository(db, box, {
      onCommitted: () => void hub.wake(),
      onQueued: () => outbox.wake(),
    }),
    allowPrivate,
  });
  return outbox;
}
