import { z } from 'zod';
import { clientSchema } from './clients.ts';

export const EXPORT_FORMAT = 'clients-manager-export';
export const EXPORT_VERSION = 1;

/**
 * Marks in an event's field list (beside field names): the client was written by an import,
 * or its password was read by an export.
 */
export const IMPORT_EVENT_FIELD = 'import';
export const EXPORT_EVENT_FIELD = 'export';

/** Largest import file the server takes (the import route's own body limit). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** A client as exported: what the API presents, plus the password when it was asked for. */
export const exportedClientSchema = clientSchema.extend({
  server: clientSchema.shape.server.extend({ password: z.string().optional() }),
});
export type ExportedClient = z.infer<typeof exportedClientSchema>;

/** The file `GET /api/clients/export` and `npm run clients -- export` write. */
export const clientExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.string(),
  includesSecrets: z.boolean(),
  clients: z.array(exportedClientSchema),
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
 * because of invalid documents). `updated` are clients whose id exists and whose fields
 * differ; `unchanged` exist with the same fields and are not written.
 */
export const importReportSchema = z.object({
  applied: z.boolean(),
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  invalid: z.array(importProblemSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** The answer to an import that was refused as a whole: nothing was written. */
export const importRefusedSchema = z.object({
  error: z.string(),
  report: importReportSchema,
});
export type ImportRefused = z.infer<typeof importRefusedSchema>;
