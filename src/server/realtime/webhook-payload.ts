import type { Kysely } from 'kysely';
import type { ClientEvent, ClientEventKind } from '#shared/events.ts';
import type { WebhookFormat, WebhookPayload } from '#shared/webhooks.ts';
import type { Database } from '#server/db/schema.ts';
import { replaceHiddenInLine } from '#shared/command-safe-text.ts';

/** What each kind of event says a person did, in a Slack message: `<who> <did> <what>`. */
const VERBS: Readonly<Record<ClientEventKind, string>> = {
  'client.created': 'created client',
  'client.updated': 'changed client',
  'client.duplicated': 'duplicated a client as',
  'client.deleted': 'deleted client',
  'client.password_read': 'read the server password of client',
  'client.restored': 'restored client',
  'server.created': 'added server',
  'server.updated': 'changed server',
  'server.deleted': 'removed server',
  'server.made_primary': 'made primary server',
  'server.checked': 'checked server',
  'server.host_key_accepted': 'accepted a new host key of server',
  'credential.created': 'added credential',
  'credential.updated': 'changed credential',
  'credential.rotated': 'rotated credential',
  'credential.revealed': 'revealed credential',
  'credential.deleted': 'deleted credential',
  'person.invited': 'invited',
  'person.invitation_revoked': 'revoked the invitation of',
  'person.joined': 'joined:',
  'person.role_changed': 'changed the role of',
  'person.tags_changed': 'changed the tags of',
  'person.disabled': 'disabled the account of',
  'person.enabled': 'enabled the account of',
  'person.signed_out': 'signed out everywhere:',
  'person.second_factor_reset': 'reset the second factor of',
  'person.second_factor_added': 'added a second factor:',
  'person.second_factor_removed': 'removed a second factor:',
  'person.token_created': 'created an API token for',
  'person.token_revoked': 'revoked an API token of',
  'person.token_secret_used': 'read a secret with an API token of',
  'webhook.created': 'added a webhook to',
  'webhook.updated': 'changed the webhook to',
  'webhook.deleted': 'deleted the webhook to',
  'app.created': 'added app',
  'app.updated': 'changed app',
  'app.deleted': 'removed app',
  'run.started': 'started a deploy of app',
  'run.cancel_requested': 'asked to cancel a deploy of app',
  'run.ended': 'saw a deploy end of app',
  'issue.opened': 'opened issue',
  'issue.updated': 'changed issue',
  'issue.commented': 'commented on issue',
  'issue.resolved': 'resolved issue',
  'issue.reopened': 'reopened issue',
};

/** `Acme (ACME)`, live or deleted; the id when neither table knows it any more. */
async function clientName(db: Kysely<Database>, id: string): Promise<string> {
  const row =
    (await db
      .selectFrom('client')
      .select(['name', 'code'])
      .where('id', '=', id)
      .executeTakeFirst()) ??
    (await db
      .selectFrom('deletedClient')
      .select(['name', 'code'])
      .where('id', '=', id)
      .executeTakeFirst());
  return row ? `${row.name} (${row.code})` : id;
}

/** Who or what the event is about, by name or code: never a value of a field. */
async function subjectOf(db: Kysely<Database>, event: ClientEvent): Promise<string> {
  if (event.personId !== null) {
    const row =
      (await db
        .selectFrom('user')
        .select('email')
        .where('id', '=', event.personId)
        .executeTakeFirst()) ??
      (await db
        .selectFrom('invitation')
        .select('email')
        .where('id', '=', event.personId)
        .executeTakeFirst());
    return row?.email ?? event.personId;
  }
  if (event.webhookId !== null) {
    // Its host only: the path of a chat service's URL is the secret that lets anyone post.
    const row = await db
      .selectFrom('webhook')
      .select('url')
      .where('id', '=', event.webhookId)
      .executeTakeFirst();
    return row ? (URL.parse(row.url)?.host ?? event.webhookId) : event.webhookId;
  }
  if (event.credentialId !== null) {
    const row = await db
      .selectFrom('credential')
      .select('name')
      .where('id', '=', event.credentialId)
      .executeTakeFirst();
    return row ? `"${row.name}"` : event.credentialId;
  }
  const client = event.clientId === null ? null : await clientName(db, event.clientId);
  if (event.issueId !== null) {
    const row = await db
      .selectFrom('issue')
      .select('title')
      .where('id', '=', event.issueId)
      .executeTakeFirst();
    const issue = row ? `"${row.title}"` : event.issueId;
    return client === null ? issue : `${issue} of ${client}`;
  }
  if (event.appId !== null) {
    const row = await db
      .selectFrom('app')
      .select('name')
      .where('id', '=', event.appId)
      .executeTakeFirst();
    const app = row ? `"${row.name}"` : event.appId;
    return client === null ? app : `${app} of ${client}`;
  }
  if (event.serverId !== null) {
    const row = await db
      .selectFrom('server')
      .select('label')
      .where('id', '=', event.serverId)
      .executeTakeFirst();
    const server = row ? `"${row.label}"` : event.serverId;
    return client === null ? server : `${server} of ${client}`;
  }
  return client ?? 'nothing named';
}

/**
 * One readable line about an event: who did what to which record, and the fields it names.
 * Names and titles stored before they had to be free of control, bidi and zero-width
 * characters (or written to the database directly) could start a forged second line or
 * reverse the text after them: each such character is a space here.
 */
export async function describeEvent(db: Kysely<Database>, event: ClientEvent): Promise<string> {
  const subject = await subjectOf(db, event);
  const fields = event.fields.length > 0 ? `: ${event.fields.join(', ')}` : '';
  return replaceHiddenInLine(
    `${event.actor.name} ${VERBS[event.kind]} ${subject}${fields}`,
    () => ' ',
  );
}

/**
 * The line as Slack text: Slack reads `<…>` as a mention or link and `&…;` as an entity, and
 * names and titles are typed by people, so all three characters are escaped. The whole line is
 * escaped because it carries no link or mention of our own.
 */
function slackText(line: string): string {
  return line.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A Slack-compatible message (an incoming webhook takes `text`). */
export interface SlackPayload {
  text: string;
  timestamp: number;
}

/**
 * The body of one attempt of a delivery: the event itself (`json`; it names fields, never their
 * values, and an event never holds a secret), or a line about it (`slack`).
 */
export async function payloadOf(
  db: Kysely<Database>,
  format: WebhookFormat,
  delivery: { id: string; timestamp: number },
  event: ClientEvent,
): Promise<WebhookPayload | SlackPayload> {
  if (format === 'slack') {
    return { text: slackText(await describeEvent(db, event)), timestamp: delivery.timestamp };
  }
  return { id: delivery.id, timestamp: delivery.timestamp, event };
}
