import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import type { EventHub } from '#server/realtime/event-hub.ts';
import { WebhookOutbox, type WebhookTimings } from '#server/realtime/webhook-outbox.ts';
import { ownerSpeaksUnder } from '#server/realtime/webhook-owner.ts';
import type { Allowlist } from '#server/auth/allowlist.ts';
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
    /** ALLOWED_EMAILS and ALLOWED_EMAIL_DOMAINS: an owner they leave out no longer speaks. */
    allowlist: Allowlist;
    timings?: WebhookTimings;
    /** DATABASE_POOL_SIZE on PostgreSQL: each endpoint served holds a connection for its turn. */
    poolSize?: number;
  },
): WebhookOutbox {
  const { db, box, hub, log, allowPrivate } = deps;
  const ownerSpeaks = ownerSpeaksUnder(deps.allowlist);
  const outbox = new WebhookOutbox({
    db,
    box,
    log,
    allowPrivate,
    ownerSpeaks,
    poolSize: deps.poolSize,
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
      ownerSpeaks,
    }),
    allowPrivate,
  });
  return outbox;
}
