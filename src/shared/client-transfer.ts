import { z } from 'zod';
import { BULK_MAX_IDS } from './client-bulk.ts';
import { clientSchema } from './clients.ts';
import { credentialKindSchema } from './servers.ts';

export const EXPORT_FORMAT = 'clients-manager-export';
/**
 * 2: each client also lists all its `servers`, and the file the vault `credentials` they use.
 * Version 1 (one server per client, as `server`) still imports.
 */
export const EXPORT_VERSION = 2;
export const IMPORTABLE_VERSIONS: readonly number[] = [1, 2];

/**
 * Marks in an event's field list (beside field names): the client was written by an import,
 * or its password was read by an export.
 */
export const IMPORT_EVENT_FIELD = 'import';
export const EXPORT_EVENT_FIELD = 'export';

/** Largest import file the server takes (the import route's own body limit). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Most client documents the import route takes in one file: as many as a bulk request may name.
 * An import is one transaction holding the database's writer, and 20 MB of `{}` would be
 * millions of clients. The command (`npm run clients -- import`) has no limit.
 */
export const IMPORT_MAX_DOCUMENTS = BULK_MAX_IDS;

/** A pinned host key, as OpenSSH names and prints it. */
export const exportedHostKeySchema = z.object({ algorithm: z.string(), fingerprint: z.string() });

/** One of a client's servers as exported; its credential by id (see `credentials`). */
export const exportedServerSchema = z.object({
  label: z.string(),
  host: z.string(),
  port: z.number(),
  username: z.string(),
  uiDir: z.string(),
  private: z.boolean(),
  /** The server the client's commands use (`server` shows it again, for older readers). */
  primary: z.boolean(),
  credentialId: z.string().nullable(),
  hostKey: exportedHostKeySchema.nullable(),
});
export type ExportedServer = z.infer<typeof exportedServerSchema>;

/**
 * A client as exported: what the API presents (`server` is its primary server, with the password
 * when it was asked for), and all its servers in order.
 */
export const exportedClientSchema = clientSchema.extend({
  server: clientSchema.shape.server.extend({ password: z.string().optional() }),
  servers: z.array(exportedServerSchema),
});
export type ExportedClient = z.infer<typeof exportedClientSchema>;

/**
 * A vault credential an exported server uses. Its `secret` and `passphrase` (null when it has
 * none) only in a file that includes secrets.
 */
export const exportedCredentialSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: credentialKindSchema,
  publicKey: z.string().nullable(),
  fingerprint: z.string().nullable(),
  secret: z.string().optional(),
  passphrase: z.string().nullable().optional(),
});
export type ExportedCredential = z.infer<typeof exportedCredentialSchema>;

/** The file `GET /api/clients/export` and `npm run clients -- export` write. */
export const clientExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  includesSecrets: z.boolean(),
  clients: z.array(exportedClientSchema),
  credentials: z.array(exportedCredentialSchema),
});
export type ClientExport = z.infer<typeof clientExportSchema>;

/** One document the import could not take: its position in the file, its id, and why. */
export const importProblemSchema = z.object({
  index: z.number(),
  id: z.string().optional(),
  reason: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

/**
 * What an import did, or would do when `applied` is false (a dry run, or an import refused
 * because of invalid documents). `updated` are clients whose id exists and whose fields or
 * servers differ; `unchanged` exist with the same fields and servers and are not written.
 * `credentialsCreated` counts vault credentials the file added (one the vault has under the
 * same id is kept as it is); `warnings` name documents imported with less than the file says
 * (a server whose credential the file lists without its secret, and the vault lacks).
 */
export const importReportSchema = z.object({
  applied: z.boolean(),
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  credentialsCreated: z.number().default(0),
  invalid: z.array(importProblemSchema),
  warnings: z.array(importProblemSchema).default([]),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** The answer to an import that was refused as a whole: nothing was written. */
export const importRefusedSchema = z.object({
  error: z.string(),
  report: importReportSchema,
});
export type ImportRefused = z.infer<typeof importRefusedSchema>;

/** `?flag=1` (or `true`) turns an option on; any other value, or none, leaves it off. */
const queryFlagSchema = z
  .string()
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** `GET /api/clients/export?secrets=1`: the passwords in the file too. */
export const exportQuerySchema = z.object({ secrets: queryFlagSchema });

/** `POST /api/clients/import?dryRun=1&skipInvalid=1`. */
export const importQuerySchema = z.object({
  dryRun: queryFlagSchema,
  skipInvalid: queryFlagSchema,
});
