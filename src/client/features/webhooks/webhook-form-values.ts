import { z } from 'zod';
import type { ClientEventKind } from '#shared/events.ts';
import {
  webhookInputSchema,
  webhookSecretSchema,
  type Webhook,
  type WebhookFormat,
  type WebhookInput,
  type WebhookPatch,
} from '#shared/webhooks.ts';
import { placeFieldErrors, type PlacedErrors } from '#client/lib/form-errors.ts';

export interface WebhookFormValues {
  url: string;
  events: ClientEventKind[];
  format: WebhookFormat;
  enabled: boolean;
  /** Empty: made by the server on create, kept as it is on edit. */
  secret: string;
}

/** The shared input's rules, with an empty secret allowed (it means "none given"). */
export const webhookFormSchema = webhookInputSchema.extend({
  secret: z.union([z.literal(''), webhookSecretSchema]),
});

export const FORM_FIELDS = ['url', 'events', 'format', 'enabled', 'secret'] as const;

export function initialValues(webhook: Webhook | null): WebhookFormValues {
  if (!webhook) return { url: '', events: [], format: 'json', enabled: true, secret: '' };
  return {
    url: webhook.url,
    events: [...webhook.events],
    format: webhook.format,
    enabled: webhook.enabled,
    secret: '',
  };
}

/** What is sent on create and on edit: the secret only when one is typed. */
export function toInput(values: WebhookFormValues): WebhookInput {
  const { secret, ...rest } = values;
  return { ...rest, url: rest.url.trim(), ...(secret === '' ? {} : { secret }) };
}

/**
 * What an edit sends: the fields changed in the form, and the secret when one is typed. What was
 * left alone is left out, so a change another administrator saved while the form was open (the
 * endpoint turned off, say) stays.
 */
export function toPatch(initial: WebhookFormValues, values: WebhookFormValues): WebhookPatch {
  const input = toInput(values);
  const sameEvents =
    initial.events.length === values.events.length &&
    values.events.every((kind) => initial.events.includes(kind));
  return {
    ...(input.url === initial.url ? {} : { url: input.url }),
    ...(sameEvents ? {} : { events: input.events }),
    ...(values.format === initial.format ? {} : { format: values.format }),
    ...(values.enabled === initial.enabled ? {} : { enabled: values.enabled }),
    ...(input.secret === undefined ? {} : { secret: input.secret }),
  };
}

/**
 * A 400's fields as the form names them: `events.3` is said next to the events, and what no
 * field of the form holds is said above it.
 */
export function toFormErrors(fields: Record<string, string>): PlacedErrors {
  return placeFieldErrors(fields, (path) =>
    FORM_FIELDS.find((name) => path === name || path.startsWith(`${name}.`)),
  );
}
