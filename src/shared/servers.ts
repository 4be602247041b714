import { z } from 'zod';

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

export const serverListSchema = z.object({ servers: z.array(serverSchema) });
export type ServerList = z.infer<typeof serverListSchema>;

/**
 * `GET /api/servers`: every server of every client, or those of one client, in one status, or
 * matching a search of label, host, user and client name or code (ignoring case and accents).
 */
export const serverListQuerySchema = z.object({
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a client id')
    .optional(),
  status: serverStatusSchema.optional(),
  q: z.string().max(200, 'At most 200 characters').optional(),
});
