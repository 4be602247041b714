import { z } from 'zod';
import { nextCursorSchema } from './pages.ts';

/** Kinds of change recorded in the event log, named `entity.verb` as on the wire. */
export const CLIENT_EVENT_KINDS = [
  'client.created',
  'client.updated',
  'client.duplicated',
  'client.deleted',
  'client.password_read',
  'client.restored',
] as const;
/** Kinds of change to one of a client's servers; such an event names the server too. */
export const SERVER_EVENT_KINDS = [
  'server.created',
  'server.updated',
  'server.deleted',
  'server.made_primary',
  'server.checked',
  'server.host_key_accepted',
] as const;
/**
 * Kinds of change to a credential of the vault, and its audited reads. Such an event names the
 * credential and no client.
 */
export const CREDENTIAL_EVENT_KINDS = [
  'credential.created',
  'credential.updated',
  'credential.rotated',
  'credential.revealed',
  'credential.deleted',
] as const;
/**
 * Kinds of change to a person's account, made by an administrator (or the `user` command): the
 * audit trail. Such an event names the person (`personId`) and no client, and reaches admins
 * only.
 */
export const PERSON_EVENT_KINDS = [
  'person.invited',
  'person.invitation_revoked',
  'person.joined',
  'person.role_changed',
  'person.tags_changed',
  'person.disabled',
  'person.enabled',
  'person.signed_out',
  'person.second_factor_reset',
  // A person's own second factors (`passkey` or `authenticator` in the fields), by themselves.
  'person.second_factor_added',
  'person.second_factor_removed',
  // A person's own API tokens (the actor is the owner, or the administrator who signed them
  // out everywhere); a token's use of a secret.
  'person.token_created',
  'person.token_revoked',
  'person.token_secret_used',
] as const;
/**
 * Kinds of change to a webhook endpoint, made by an administrator: part of the audit trail.
 * Such an event names the endpoint (`webhookId`) and no client, and reaches admins only; a new
 * signing secret is the field name `secret`, never its value.
 */
export const WEBHOOK_EVENT_KINDS = [
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
] as const;
/** Kinds of change to a client's app; such an event names the app (`appId`). */
export const APP_EVENT_KINDS = ['app.created', 'app.updated', 'app.deleted'] as const;
/**
 * A run of an app: started, asked to stop, ended. Such an event names the app and the run;
 * `run.ended` carries the final state as a field, `state:succeeded` (RUN_STATE_FIELD_PREFIX).
 */
export const RUN_EVENT_KINDS = ['run.started', 'run.cancel_requested', 'run.ended'] as const;
/**
 * Kinds of change to an issue of a client. Such an event names the issue (and its server or
 * app when it has one). The system's own problem issues are opened and resolved with the actor
 * `system`.
 */
export const ISSUE_EVENT_KINDS = [
  'issue.opened',
  'issue.updated',
  'issue.commented',
  'issue.resolved',
  'issue.reopened',
] as const;
export const EVENT_KINDS = [
  ...CLIENT_EVENT_KINDS,
  ...SERVER_EVENT_KINDS,
  ...CREDENTIAL_EVENT_KINDS,
  ...PERSON_EVENT_KINDS,
  ...WEBHOOK_EVENT_KINDS,
  ...APP_EVENT_KINDS,
  ...RUN_EVENT_KINDS,
  ...ISSUE_EVENT_KINDS,
] as const;
export const clientEventKindSchema = z.enum(EVENT_KINDS);
export type ClientEventKind = z.infer<typeof clientEventKindSchema>;

/** A check's result in a `server.checked` event's fields: `status:reachable`, … */
export const CHECK_STATUS_FIELD_PREFIX = 'status:';
/** A run's final state in a `run.ended` event's fields: `state:failed`, … */
export const RUN_STATE_FIELD_PREFIX = 'state:';
/**
 * The client a copy was made from, in a `client.duplicated` event's fields: `from:<id>`. Only
 * the copy's history shows it, to those who may see that client (the copy may go to other tags).
 */
export const DUPLICATED_FROM_FIELD_PREFIX = 'from:';

/** The original's id a field of a copy's event names (DUPLICATED_FROM_FIELD_PREFIX), if any. */
export function duplicateSourceIn(field: string): string | undefined {
  return field.startsWith(DUPLICATED_FROM_FIELD_PREFIX)
    ? field.slice(DUPLICATED_FROM_FIELD_PREFIX.length) || undefined
    : undefined;
}

/**
 * Who did something, as the event log records it: the user's id and email. Not the display
 * name, which its owner can change at will (renamed to a colleague's name, a person could
 * act and rename back, and history would name the colleague).
 */
export interface Actor {
  id: string;
  name: string;
}

/**
 * One event of the live feed. It names the fields that changed, never their values, so a
 * secret cannot leak through the feed. `seq` is also the SSE event id.
 */
export const clientEventSchema = z.object({
  seq: z.number(),
  kind: clientEventKindSchema,
  /** The client it is about; null for a `credential.*`, `person.*` or `webhook.*` event. */
  clientId: z.string().nullable(),
  /** The server a `server.*` event is about, or a run's or an issue's server; else null. */
  serverId: z.string().nullable(),
  /** The credential a `credential.*` event is about; null for the others. */
  credentialId: z.string().nullable(),
  /** The person a `person.*` event is about; null for the others. */
  personId: z.string().nullable(),
  /** The webhook endpoint a `webhook.*` event is about; null for the others. */
  webhookId: z.string().nullable(),
  /** The app an `app.*` or `run.*` event is about, or an issue's app; null for the others. */
  appId: z.string().nullable(),
  /** The run a `run.*` event is about; null for the others. */
  runId: z.string().nullable(),
  /** The issue an `issue.*` event is about; null for the others. */
  issueId: z.string().nullable(),
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
  at: z.string(),
  fields: z.array(z.string()),
});
export type ClientEvent = z.infer<typeof clientEventSchema>;

/** Sent first on every stream: the newest sequence number the server holds. */
export const STREAM_READY_EVENT = 'stream.ready';
/** The resume point is unknown to the server (history gone or restored): reload everything. */
export const STREAM_RESET_EVENT = 'stream.reset';
export const streamReadySchema = z.object({ seq: z.number() });

/** A client's history: its events, newest first (`GET /api/clients/:id/history`). */
export const clientHistorySchema = z.object({
  events: z.array(clientEventSchema),
  nextCursor: nextCursorSchema,
});
export type ClientHistory = z.infer<typeof clientHistorySchema>;
