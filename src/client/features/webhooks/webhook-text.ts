import {
  CLIENT_EVENT_KINDS,
  CREDENTIAL_EVENT_KINDS,
  PERSON_EVENT_KINDS,
  SERVER_EVENT_KINDS,
  WEBHOOK_EVENT_KINDS,
  APP_EVENT_KINDS,
  RUN_EVENT_KINDS,
  ISSUE_EVENT_KINDS,
  type ClientEventKind,
} from '#shared/events.ts';
import type { DeliveryStatus, WebhookFormat } from '#shared/webhooks.ts';

/** Each event kind as an administrator reads it when choosing what an endpoint hears about. */
export const EVENT_LABELS: Record<ClientEventKind, string> = {
  'client.created': 'Client added',
  'client.updated': 'Client edited',
  'client.duplicated': 'Client duplicated',
  'client.deleted': 'Client deleted',
  'client.password_read': 'Client password read',
  'client.restored': 'Client restored',
  'server.created': 'Server added',
  'server.updated': 'Server edited',
  'server.deleted': 'Server removed',
  'server.made_primary': 'Server made primary',
  'server.checked': 'Server checked',
  'server.host_key_accepted': 'New host key accepted',
  'credential.created': 'Credential added',
  'credential.updated': 'Credential edited',
  'credential.rotated': 'Credential secret replaced',
  'credential.revealed': 'Credential secret revealed',
  'credential.deleted': 'Credential deleted',
  'person.invited': 'Person invited',
  'person.invitation_revoked': 'Invitation revoked',
  'person.joined': 'Person joined',
  'person.role_changed': 'Role changed',
  'person.tags_changed': 'Tags changed',
  'person.disabled': 'Person disabled',
  'person.enabled': 'Person enabled',
  'person.signed_out': 'Signed out everywhere',
  'person.second_factor_reset': 'Second factor reset',
  'person.second_factor_added': 'Second factor added',
  'person.second_factor_removed': 'Second factor removed',
  'person.token_created': 'API token created',
  'person.token_revoked': 'API token revoked',
  'person.token_secret_used': 'Secret read with an API token',
  'webhook.created': 'Webhook added',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'app.created': 'App added',
  'app.updated': 'App edited',
  'app.deleted': 'App removed',
  'run.started': 'Deploy started',
  'run.cancel_requested': 'Deploy cancel asked',
  'run.ended': 'Deploy ended',
  'issue.opened': 'Issue opened',
  'issue.updated': 'Issue edited',
  'issue.commented': 'Issue commented on',
  'issue.resolved': 'Issue resolved',
  'issue.reopened': 'Issue reopened',
};

export interface EventFamily {
  name: string;
  /** The family in "All client events". */
  noun: string;
  kinds: readonly ClientEventKind[];
}

/** The kinds grouped by what they are about, in the order the picker shows them. */
export const EVENT_FAMILIES: readonly EventFamily[] = [
  { name: 'Clients', noun: 'client', kinds: CLIENT_EVENT_KINDS },
  { name: 'Servers', noun: 'server', kinds: SERVER_EVENT_KINDS },
  { name: 'Credentials', noun: 'credential', kinds: CREDENTIAL_EVENT_KINDS },
  { name: 'People', noun: 'people', kinds: PERSON_EVENT_KINDS },
  { name: 'Webhooks', noun: 'webhook', kinds: WEBHOOK_EVENT_KINDS },
  { name: 'Apps', noun: 'app', kinds: APP_EVENT_KINDS },
  { name: 'Deploys', noun: 'deploy', kinds: RUN_EVENT_KINDS },
  { name: 'Issues', noun: 'issue', kinds: ISSUE_EVENT_KINDS },
];

export const FORMAT_LABELS: Record<WebhookFormat, string> = {
  json: 'JSON',
  slack: 'Slack-compatible',
};

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Waiting',
  delivered: 'Delivered',
  failed: 'Failed',
};

export const STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'yellow',
  delivered: 'green',
  failed: 'red',
};

/** "3 events", or "All 26 events" when the endpoint hears about everything. */
export function eventsText(events: readonly ClientEventKind[]): string {
  const all = EVENT_FAMILIES.reduce((sum, family) => sum + family.kinds.length, 0);
  if (events.length === all) return `All ${all} events`;
  return events.length === 1 ? '1 event' : `${events.length} events`;
}

/** The chosen kinds by family, each family's labels in the picker's order; empty ones left out. */
export function eventsByFamily(
  events: readonly ClientEventKind[],
): { name: string; labels: string[] }[] {
  const chosen = new Set(events);
  return EVENT_FAMILIES.map((family) => ({
    name: family.name,
    labels: family.kinds.filter((kind) => chosen.has(kind)).map((kind) => EVENT_LABELS[kind]),
  })).filter((family) => family.labels.length > 0);
}

/** Whom an endpoint speaks for (server: realtime/webhook-owner.ts). */
export function ownerText(owner: string | null): string {
  return owner === null ? 'Owner: a deleted account' : `Owner: ${owner}`;
}

/** Why an enabled endpoint sends nothing, and what to do about it. */
export function pausedText(owner: string | null): string {
  return `${owner ?? 'Its owner'} is no longer an administrator who may sign in: save it to take it over.`;
}

export function pendingText(pending: number): string {
  if (pending === 0) return 'None waiting';
  return pending === 1 ? '1 waiting' : `${pending} waiting`;
}

export function attemptsText(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago", "in 2 hours", "now": how long since (or until) a moment. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  let amount = (then - now) / 1000;
  if (Math.abs(amount) < 10) return 'now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return relative.format(Math.trunc(amount), unit);
    amount /= size;
  }
  return relative.format(Math.trunc(amount), 'year');
}
