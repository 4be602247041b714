import {
  CHECK_STATUS_FIELD_PREFIX,
  duplicateSourceIn,
  RUN_STATE_FIELD_PREFIX,
  type ClientEvent,
} from '#shared/events.ts';
import { EXPORT_EVENT_FIELD, IMPORT_EVENT_FIELD } from '#shared/client-transfer.ts';

/** How a changed field is named on screen; the log holds names only, never values. */
const FIELD_LABELS: Record<string, string> = {
  name: 'name',
  code: 'code',
  description: 'description',
  tags: 'tags',
  domains: 'domains',
  startDate: 'start date',
  'server.host': 'host',
  'server.port': 'port',
  'server.username': 'username',
  'server.password': 'password',
  'server.private': 'private',
  'server.uiDir': 'uiDir',
  // An issue's (and an app's) links, named for what they point at.
  serverId: 'server',
  appId: 'app',
  assigneeId: 'assignee',
};

export function fieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? field;
}

/** "a, b and c" */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** What happened, after the actor's name: "edited name and tags". */
export function describeEvent(event: ClientEvent): string {
  const imported = event.fields.includes(IMPORT_EVENT_FIELD);
  const fields = event.fields.filter((field) => field !== IMPORT_EVENT_FIELD);
  switch (event.kind) {
    case 'client.created':
      return imported ? 'imported it' : 'created it';
    case 'client.updated':
      if (fields.length === 0) return 'saved it without changes';
      return `edited ${listOf(fields.map(fieldLabel))}${imported ? ' by an import' : ''}`;
    case 'client.duplicated':
      return 'created it as a duplicate';
    case 'client.deleted':
      return 'deleted it';
    case 'client.password_read':
      return event.fields.includes(EXPORT_EVENT_FIELD)
        ? 'read the password in an export'
        : 'read the password';
    case 'client.restored':
      return 'restored it after a delete';
    case 'server.checked': {
      const status = event.fields.find((field) => field.startsWith(CHECK_STATUS_FIELD_PREFIX));
      const result = status?.slice(CHECK_STATUS_FIELD_PREFIX.length).replaceAll('_', ' ');
      return result ? `checked a server: ${result}` : 'checked a server';
    }
    case 'server.created':
      return 'added a server';
    case 'server.updated':
      return fields.length === 0
        ? 'saved a server without changes'
        : `edited a server's ${listOf(fields.map(fieldLabel))}`;
    case 'server.deleted':
      return 'removed a server';
    case 'server.made_primary':
      return 'made a server the primary one';
    case 'server.host_key_accepted':
      return "accepted a server's new host key";
    case 'credential.created':
      return 'added it to the vault';
    case 'credential.updated':
      return `edited ${listOf(fields.map(fieldLabel))}`;
    case 'credential.rotated':
      return 'replaced its secret';
    case 'credential.revealed':
      return 'revealed its secret';
    case 'credential.deleted':
      return 'deleted it from the vault';
    // The audit trail (People) words these with the person's name; here they stand alone.
    case 'person.invited':
      return 'invited them';
    case 'person.invitation_revoked':
      return 'revoked their invitation';
    case 'person.joined':
      return 'joined';
    case 'person.role_changed':
      return 'changed their role';
    case 'person.tags_changed':
      return 'changed the tags they are limited to';
    case 'person.disabled':
      return 'disabled their account';
    case 'person.enabled':
      return 'enabled their account';
    case 'person.signed_out':
      return 'signed them out everywhere';
    case 'person.second_factor_reset':
      return 'reset their second factor';
    case 'person.second_factor_added':
      return fields.includes('passkey') ? 'added a passkey' : 'turned on authenticator codes';
    case 'person.second_factor_removed':
      return fields.includes('passkey') ? 'removed a passkey' : 'turned off authenticator codes';
    case 'webhook.created':
      return 'added a webhook';
    case 'webhook.updated':
      return `edited a webhook's ${listOf(fields)}`;
    case 'webhook.deleted':
      return 'deleted a webhook';
    case 'person.token_created':
      return 'created an API token';
    case 'person.token_revoked':
      return 'revoked an API token';
    case 'person.token_secret_used':
      return 'read a secret with an API token';
    case 'app.created':
      return 'added an app';
    case 'app.updated':
      return fields.length === 0
        ? 'saved an app without changes'
        : `edited an app's ${listOf(fields.map(fieldLabel))}`;
    case 'app.deleted':
      return 'removed an app';
    case 'run.started':
      return 'started a deploy';
    case 'run.cancel_requested':
      return 'asked a deploy to stop';
    case 'run.ended': {
      const state = event.fields.find((field) => field.startsWith(RUN_STATE_FIELD_PREFIX));
      const result = state?.slice(RUN_STATE_FIELD_PREFIX.length);
      return result ? `saw a deploy end: ${result}` : 'saw a deploy end';
    }
    case 'issue.opened':
      return 'opened an issue';
    case 'issue.updated':
      return `edited an issue's ${listOf(fields.map(fieldLabel))}`;
    case 'issue.commented':
      return 'commented on an issue';
    case 'issue.resolved':
      return 'resolved an issue';
    case 'issue.reopened':
      return 'reopened an issue';
  }
}

/** The client a duplicate was made from, if the event says. */
export function duplicatedFrom(event: ClientEvent): string | undefined {
  if (event.kind !== 'client.duplicated') return undefined;
  return event.fields.map(duplicateSourceIn).find((id) => id !== undefined);
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Nov 22, 2026, 1:09 AM" in the viewer's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}
