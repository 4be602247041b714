import { z } from 'zod';
import { HIDDEN_IN_ADDRESS_MESSAGE, hasHiddenCharacters } from './command-safe-text.ts';
import { STORABLE_MESSAGE, isStorableText } from './clients.ts';
import { nextCursorSchema } from './pages.ts';
import { EVENT_KINDS, clientEventSchema } from './events.ts';

/**
 * Webhooks: endpoints an administrator adds to hear about changes, and the deliveries made to
 * them from the event log. What the Webhooks section of Settings reads and sends, and the body
 * a receiver gets.
 */

/** The event kinds an endpoint may ask for: every kind the event log records. */
export const webhookEventKindSchema = z.enum(EVENT_KINDS);

/** `json`: the event as it is; `slack`: a Slack-compatible `{ text }` message about it. */
export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export const webhookFormatSchema = z.enum(WEBHOOK_FORMATS);
export type WebhookFormat = z.infer<typeof webhookFormatSchema>;

/** Headers of every delivery. The signature covers the exact body, which holds the timestamp. */
export const SIGNATURE_HEADER = 'x-clients-manager-signature';
export const TIMESTAMP_HEADER = 'x-clients-manager-timestamp';
export const DELIVERY_HEADER = 'x-clients-manager-delivery';
export const EVENT_HEADER = 'x-clients-manager-event';

export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, 'At most 2,000 characters')
  .url('Enter a full http:// or https:// address')
  .refine((url) => /^https?:\/\//i.test(url), 'Enter a full http:// or https:// address')
  .refine(isStorableText, STORABLE_MESSAGE)
  .refine((url) => !hasHiddenCharacters(url), HIDDEN_IN_ADDRESS_MESSAGE);

/** A signing secret: chosen by the administrator, or made by the server when left out. */
export const webhookSecretSchema = z
  .string()
  .min(16, 'At least 16 characters')
  .max(200, 'At most 200 characters');

const webhookEventsSchema = z.array(webhookEventKindSchema).min(1, 'Choose at least one event');

export const webhookInputSchema = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  format: webhookFormatSchema.default('json'),
  enabled: z.boolean().default(true),
  /** Left out on create: the server makes one and answers it once. */
  secret: webhookSecretSchema.optional(),
});
export type WebhookInput = z.input<typeof webhookInputSchema>;

/**
 * An edit: what is left out stays; a `secret` replaces the old one. Written out rather than
 * `webhookInputSchema.partial()`: zod fills a defaulted field even when it is optional, so an
 * edit of the URL alone would switch the endpoint back on and reset its format.
 */
export const webhookPatchSchema = z.object({
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  format: webhookFormatSchema.optional(),
  enabled: z.boolean().optional(),
  secret: webhookSecretSchema.optional(),
});
export type WebhookPatch = z.input<typeof webhookPatchSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** The newest delivery of an endpoint, shown in its list row. */
export const deliverySummarySchema = z.object({
  status: deliveryStatusSchema,
  responseCode: z.number().nullable(),
  at: z.string(),
});

/** An endpoint as administrators see it: never its secret. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventKindSchema),
  format: webhookFormatSchema,
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastDelivery: deliverySummarySchema.nullable(),
  /** Deliveries that are not delivered yet (waiting or retrying). */
  pending: z.number(),
  /** The administrator it speaks for: who made it or saved it last; null once deleted. */
  owner: z.string().nullable(),
  /** Its owner is no longer an enabled administrator: nothing is sent until one saves it. */
  paused: z.boolean(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({
  webhooks: z.array(webhookSchema),
  nextCursor: nextCursorSchema,
});
export type WebhookList = z.infer<typeof webhookListSchema>;

/** The answer to a create (or a secret change): the secret, this once. */
export const webhookCreatedSchema = z.object({
  webhook: webhookSchema,
  secret: z.string(),
});
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

/** One delivery of one event to one endpoint, with its latest attempt. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventSeq: z.number(),
  eventKind: webhookEventKindSchema,
  status: deliveryStatusSchema,
  attempts: z.number(),
  /** The receiver's HTTP status of the latest attempt; null when none answered. */
  responseCode: z.number().nullable(),
  /** Why the latest attempt failed, in words (a timeout, a refused address); never a secret. */
  error: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A page of deliveries, newest first; `nextCursor` asks for the older ones. */
export const webhookDeliveryPageSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

export const deliveryPageQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The JSON body of a `json` delivery. */
export const webhookPayloadSchema = z.object({
  /** The delivery's id (also in DELIVERY_HEADER): the same on every retry of it. */
  id: z.string(),
  /** Seconds since the epoch when this attempt was sent (also in TIMESTAMP_HEADER). */
  timestamp: z.number(),
  event: clientEventSchema,
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
