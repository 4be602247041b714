import type { Selectable } from 'kysely';
import {
  deliveryStatusSchema,
  webhookEventKindSchema,
  webhookFormatSchema,
  type Webhook,
  type WebhookDelivery,
} from '#shared/webhooks.ts';
import type { WebhookDeliveryTable, WebhookTable } from '#server/db/schema.ts';
import { toBool, toIso, toStringList } from '#server/db/codec.ts';
import type { OwnerStanding } from '#server/realtime/webhook-owner.ts';

const isoOrNull = (value: string | Date | null) => (value === null ? null : toIso(value));

/** An endpoint as administrators see it, with its owner: never its secret, sealed or not. */
export function presentWebhook(
  row: Omit<Selectable<WebhookTable>, 'secret' | 'cursor' | 'createdById'> & OwnerStanding,
  summary: { lastDelivery: Webhook['lastDelivery']; pending: number },
  /** Whether its owner still speaks (webhook-owner.ts): not, and it is paused. */
  speaks: boolean,
): Webhook {
  return {
    id: row.id,
    url: row.url,
    // A kind the log no longer records is left out rather than refusing the whole list.
    events: toStringList(row.events).flatMap((kind) => {
      const parsed = webhookEventKindSchema.safeParse(kind);
      return parsed.success ? [parsed.data] : [];
    }),
    format: webhookFormatSchema.catch('json').parse(row.format),
    enabled: toBool(row.enabled),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    lastDelivery: summary.lastDelivery,
    pending: summary.pending,
    owner: row.ownerEmail,
    paused: !speaks,
  };
}

export function presentDelivery(row: Selectable<WebhookDeliveryTable>): WebhookDelivery {
  return {
    id: row.id,
    eventSeq: Number(row.eventSeq),
    eventKind: webhookEventKindSchema.parse(row.eventKind),
    status: deliveryStatusSchema.catch('failed').parse(row.status),
    attempts: row.attempts,
    responseCode: row.responseCode,
    error: row.error,
    createdAt: toIso(row.createdAt),
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    nextAttemptAt: isoOrNull(row.nextAttemptAt),
    deliveredAt: isoOrNull(row.deliveredAt),
  };
}
