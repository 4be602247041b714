import { z } from 'zod';
import { recordVersionSchema } from './record-version.ts';
import { nextCursorSchema, pageQuerySchema } from './pages.ts';
import { clientIdSchema, commandWord, serverInputSchema } from './clients.ts';

/** A server's reachability as its last check left it. */
export const SERVER_STATUSES = [
  'not_checked',
  'reachable',
  'unreachable',
  'host_key_changed',
] as const;
export const serverStatusSchema = z.enum(SERVER_STATUSES, {
  error: `Must be one of ${SERVER_STATUSES.join(', ')}`,
});
export type ServerStatus = z.infer<typeof serverStatusSchema>;

export const CREDENTIAL_KINDS = ['ssh-key', 'password', 'token'] as const;
export const credentialKindSchema = z.enum(CREDENTIAL_KINDS);
export type CredentialKind = z.infer<typeof credentialKindSchema>;

export const serverIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a server id');

/**
 * A server as the API presents it. Its credential only by name and kind: a secret leaves the
 * server only through the vault's own, audited routes.
 */
export const serverSchema = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string(), code: z.string() }),
  /** The server the client's commands use. */
  primary: z.boolean(),
  label: z.string(),
  host: z.string(),
  port: z.number(),
  username: z.string(),
  uiDir: z.string(),
  private: z.boolean(),
  credential: z.object({ id: z.string(), name: z.string(), kind: credentialKindSchema }).nullable(),
  /** The host key pinned at the first check, as OpenSSH names and prints it. */
  hostKey: z.object({ algorithm: z.string(), fingerprint: z.string() }).nullable(),
  /** The different key the server offered at the last check ('host key changed'). */
  offeredHostKey: z.object({ algorithm: z.string(), fingerprint: z.string() }).nullable(),
  status: serverStatusSchema,
  /** Why the last check failed ('connection refused', …); null after a success. */
  reason: z.string().nullable(),
  checkedAt: z.string().nullable(),
  /** Since when the status has been what it is. */
  statusSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number(),
});
export type Server = z.infer<typeof serverSchema>;

export const serverListSchema = z.object({
  servers: z.array(serverSchema),
  nextCursor: nextCursorSchema,
});
export type ServerList = z.infer<typeof serverListSchema>;

/**
 * `GET /api/servers`: every server of every client, or those of one client, in one status, or
 * matching a search of label, host, user and client name or code (ignoring case and accents);
 * for scripts, those of the clients with a tag or a code, or at a host; paged on request.
 */
export const serverListQuerySchema = z.object({
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a client id')
    .optional(),
  status: serverStatusSchema.optional(),
  q: z.string().max(200, 'At most 200 characters').optional(),
  tag: z.string().max(100, 'At most 100 characters').optional(),
  code: z.string().max(100, 'At most 100 characters').optional(),
  host: z.string().max(255, 'At most 255 characters').optional(),
  ...pageQuerySchema.shape,
});

export const credentialIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a credential id');

/**
 * A server's fields as a person edits them in the Servers section or a client's panel. The
 * label names it among its client's servers (`{serverLabel}` in a command) and is unique there.
 */
export const serverFieldsSchema = z.object({
  label: commandWord(100).min(1, 'Enter a label, such as production or staging'),
  host: serverInputSchema.shape.host,
  port: serverInputSchema.shape.port,
  username: serverInputSchema.shape.username,
  uiDir: serverInputSchema.shape.uiDir,
  private: serverInputSchema.shape.private,
  /** The vault credential a check (and later a deploy) signs in with; null for none. */
  credentialId: credentialIdSchema.nullable().default(null),
});
export type ServerFields = z.input<typeof serverFieldsSchema>;

/** `POST /api/servers`: a new server of a client; a client's first server becomes its primary. */
export const serverCreateSchema = serverFieldsSchema.extend({ clientId: clientIdSchema });
export type ServerCreate = z.input<typeof serverCreateSchema>;

/** `PUT /api/servers/:id`: carries the version it was read at (409 on a stale save). */
export const serverUpdateSchema = serverFieldsSchema.extend({
  version: recordVersionSchema,
});
export type ServerUpdate = z.input<typeof serverUpdateSchema>;

/**
 * `POST /api/servers/:id/host-key`: pins the key the last check was offered. It names the
 * fingerprint the person was shown, so a key offered after that is not accepted unseen.
 */
export const acceptHostKeySchema = z.object({
  fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'Must be a SHA256 fingerprint'),
});

/** `GET /api/clients/:id/commands`: for its primary server, or `serverId`, one of its others. */
export const clientCommandsQuerySchema = z.object({ serverId: serverIdSchema.optional() });
