import type { ClientEvent } from '#shared/events.ts';
import { roleSchema } from '#shared/people.ts';
import { tokenScopeSchema } from '#shared/tokens.ts';
import { describeEvent } from '#client/lib/history-text.ts';
import { ROLE_LABELS } from './people-text.ts';

/** The role a `person.role_changed` or `person.invited` event names (`role:viewer`). */
function roleIn(event: ClientEvent): string | undefined {
  const field = event.fields.find((f) => f.startsWith('role:'));
  const role = roleSchema.safeParse(field?.slice('role:'.length));
  return role.success ? ROLE_LABELS[role.data].toLowerCase() : undefined;
}

/**
 * What an audit event says after its actor's name: "made bob@… a viewer". `who` is the person
 * it is about, by email (an invitation since revoked or replaced has none left).
 */
export function auditText(event: ClientEvent, who: string | undefined): string {
  const person = who ?? 'someone no longer listed';
  const role = roleIn(event);
  switch (event.kind) {
    case 'person.invited':
      return role ? `invited ${person} as ${withArticle(role)}` : `invited ${person}`;
    case 'person.invitation_revoked':
      return `revoked the invitation of ${person}`;
    case 'person.joined':
      return 'joined with an invitation';
    case 'person.role_changed':
      return role ? `made ${person} ${withArticle(role)}` : `changed the role of ${person}`;
    case 'person.tags_changed':
      return `changed the tags ${person} is limited to`;
    case 'person.disabled':
      return `disabled ${person}`;
    case 'person.enabled':
      return `enabled ${person}`;
    case 'person.signed_out':
      return `signed ${person} out everywhere`;
    case 'person.second_factor_reset':
      return `reset the second factor of ${person}`;
    // The person's own change, said as the history says it.
    case 'person.second_factor_added':
    case 'person.second_factor_removed':
      return describeEvent(event);
    case 'person.token_created':
      return tokenText('created an API token', event);
    case 'person.token_revoked':
      return tokenText('revoked an API token', event);
    case 'person.token_secret_used':
      return 'read a secret with an API token';
    case 'client.password_read':
      return "read a client's password";
    case 'credential.revealed':
      return "revealed a credential's secret";
    case 'webhook.created':
      return 'added a webhook';
    case 'webhook.updated':
      return `changed a webhook's ${event.fields.join(', ')}`;
    case 'webhook.deleted':
      return 'deleted a webhook';
    default:
      return event.kind;
  }
}

/** "created an API token (read+secrets)": the scope a token event names (`scope:read`). */
function tokenText(text: string, event: ClientEvent): string {
  const scope = tokenScopeSchema.safeParse(
    event.fields.find((f) => f.startsWith('scope:'))?.slice('scope:'.length),
  );
  return scope.success ? `${text} (${scope.data})` : text;
}

function withArticle(role: string): string {
  return /^[aeiou]/.test(role) ? `an ${role}` : `a ${role}`;
}

export const AUDIT_KIND_OPTIONS = [
  { value: 'person.invited', label: 'Invited' },
  { value: 'person.invitation_revoked', label: 'Invitation revoked' },
  { value: 'person.joined', label: 'Joined' },
  { value: 'person.role_changed', label: 'Role changed' },
  { value: 'person.tags_changed', label: 'Tags changed' },
  { value: 'person.disabled', label: 'Disabled' },
  { value: 'person.enabled', label: 'Enabled' },
  { value: 'person.signed_out', label: 'Signed out everywhere' },
  { value: 'person.second_factor_reset', label: 'Second factor reset' },
  { value: 'person.second_factor_added', label: 'Second factor added' },
  { value: 'person.second_factor_removed', label: 'Second factor removed' },
  { value: 'person.token_created', label: 'API token created' },
  { value: 'person.token_revoked', label: 'API token revoked' },
  { value: 'person.token_secret_used', label: 'Secret read with an API token' },
  { value: 'client.password_read', label: 'Client password read' },
  { value: 'credential.revealed', label: 'Credential revealed' },
  { value: 'webhook.created', label: 'Webhook added' },
  { value: 'webhook.updated', label: 'Webhook changed' },
  { value: 'webhook.deleted', label: 'Webhook deleted' },
];
