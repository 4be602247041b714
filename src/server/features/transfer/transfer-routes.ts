import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportSelectionSchema } from '#shared/client-bulk.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_DOCUMENTS,
  clientExportSchema,
  exportQuerySchema,
  importQuerySchema,
  importRefusedSchema,
  importReportSchema,
  type ClientExport,
  type ImportRefused,
  type ImportReport,
} from '#shared/client-transfer.ts';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import { HttpError } from '#server/http/http-error.ts';
import { refusals } from '#server/http/route-schemas.ts';
import { REFUSE_CROSS_SITE } from '#server/http/csrf.ts';
import { accessOf, actorOf, requireUser, type SignedInUser } from '#server/auth/session-guard.ts';
import { requireSecretPermission } from '#server/auth/secret-access.ts';
import { canSeeTags } from '#shared/people.ts';
import type { Client } from '#shared/clients.ts';
import { checkImportReach } from './import-reach.ts';
import {
  ImportedMeanwhileError,
  type ClientRepository,
} from '#server/features/clients/client-repository.ts';
import { nameIds } from '#server/features/clients/client-bulk-routes.ts';
import { ClientsNotFoundError, exportClients } from './client-export.ts';
import { EXPORT_BUSY_MESSAGE, EXPORT_RETRY_AFTER_SECONDS, ExportGate } from './export-gate.ts';
import { importMapped } from './client-import.ts';
import { ImportFileError, mapImportFile } from './import-mapping.ts';

/**
 * The export file, a download. Sent as the text it is (pretty-printed), which Fastify does not
 * serialise again: the schema describes it.
 */
const exportFile = {
  description: 'The export file, as an attachment (`clients-<day>.json`).',
  content: { 'application/json': { schema: clientExportSchema } },
};

/** The answer to an export asked for while another is under way (export-gate.ts). */
const exportBusy = apiErrorSchema.describe(
  'Another export is under way on this instance (one at a time): `Retry-After` says when to try again.',
);

/** The clients a person's export holds: all, or those carrying one of their tags. */
function visibleTo(user: SignedInUser): ((client: Client) => boolean) | undefined {
  const access = accessOf(user);
  return access.tags === null ? undefined : (client) => canSeeTags(access, client.tags);
}

/**
 * Export and import of all clients (own file, or a Firestore export of the original tool).
 * Kept apart from the client routes: they work on the whole collection at once.
 */
export function registerTransferRoutes(
  app: FastifyInstance,
  deps: { db: Db; box: SecretBox; clients: ClientRepository; onCommitted: () => void },
): void {
  const { db, box, clients, onCommitted } = deps;
  const gate = new ExportGate();

  /**
   * Takes the export gate for this request, released when its response closes (sent, or the
   * connection gone, whatever the answer was); false once a 429 is on its way instead.
   */
  function takeExportGate(reply: FastifyReply): boolean {
    const release = gate.enter();
    if (!release) {
      void reply
        .status(429)
        .header('retry-after', String(EXPORT_RETRY_AFTER_SECONDS))
        .send({ error: EXPORT_BUSY_MESSAGE });
      return false;
    }
    reply.raw.once('close', release);
    return true;
  }

  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['transfer'];

  // A download. With ?secrets=1 the passwords are in it (a role with `secret` only), and each
  // read is in the event log.
  api.get(
    '/api/clients/export',
    {
      config: REFUSE_CROSS_SITE,
      schema: {
        summary: 'Export every client (and the vault credentials they use) as a file',
        description:
          'With `?secrets=1` the passwords and keys are in it (the `secret` permission).',
        tags,
        querystring: exportQuerySchema,
        response: { 200: exportFile, ...refusals, 429: exportBusy },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const { secrets } = request.query;
      if (secrets) requireSecretPermission(user);
      if (!takeExportGate(reply)) return reply;
      const visible = visibleTo(user);
      const exported = await exportClients(db, box, clients, { secrets, actor, visible });
      return sendExport(reply, exported, secrets);
    },
  );

  // The selected clients only (a body: 10,000 ids would not fit in a URL). A POST, so the CSRF
  // check refuses it cross-site as it does the GET above. All of them or, when an id is
  // missing, a 404 with nothing read and nothing recorded.
  api.post(
    '/api/clients/export',
    {
      schema: {
        summary: 'Export the selected clients as a file',
        tags,
        body: exportSelectionSchema,
        response: { 200: exportFile, ...refusals, 429: exportBusy },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const { ids, secrets } = request.body;
      if (secrets) requireSecretPermission(user);
      if (!takeExportGate(reply)) return reply;
      try {
        const visible = visibleTo(user);
        const exported = await exportClients(db, box, clients, { secrets, actor, ids, visible });
        return sendExport(reply, exported, secrets);
      } catch (error) {
        if (!(error instanceof ClientsNotFoundError)) throw error;
        const missing = error.missing.length;
        throw new HttpError(
          404,
          `${missing} of the ${ids.length} ${ids.length === 1 ? 'client' : 'clients'} were not found (deleted meanwhile?): ${nameIds(error.missing)}. Nothing was exported.`,
        );
      }
    },
  );

  /** The file as a download; wakes the live feed when secret reads were recorded. */
  function sendExport(
    reply: FastifyReply,
    { file, secretsRead }: { file: ClientExport; secretsRead: number },
    secrets: boolean,
  ) {
    if (secretsRead > 0) onCommitted();
    const day = file.exportedAt.slice(0, 10);
    const name = `clients-${day}${secrets ? '-with-passwords' : ''}.json`;
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(file, null, 2));
  }

  // The body is the file itself. ?dryRun=1 only reports; otherwise one transaction applies
  // everything, or nothing when a document is invalid (unless ?skipInvalid=1).
  api.post(
    '/api/clients/import',
    {
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        summary: 'Import an export file, or a Firestore export of the original tool',
        description: `The body is the file itself, up to ${IMPORT_MAX_BYTES / (1024 * 1024)} MB and ${IMPORT_MAX_DOCUMENTS} client documents. \`?dryRun=1\` only reports; \`?skipInvalid=1\` imports the valid documents when some are not.`,
        tags,
        querystring: importQuerySchema,
        // Read by the import itself, which names each document it cannot take.
        body: z.unknown().describe('The export file (JSON)'),
        response: {
          200: importReportSchema,
          ...refusals,
          409: apiErrorSchema.describe(
            'Another import wrote some of these clients meanwhile: nothing was imported.',
          ),
          422: importRefusedSchema.describe('Documents are invalid: nothing was imported.'),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const actor = actorOf(user);
      try {
        // Mapped once: it opens the file's keys with a passphrase, each a worker's work.
        const mapped = await mapImportFile(request.body, { maxDocuments: IMPORT_MAX_DOCUMENTS });
        await checkImportReach(db.kysely, accessOf(user), mapped);
        const outcome = await importMapped(clients, mapped, {
          dryRun: request.query.dryRun,
          skipInvalid: request.query.skipInvalid,
          actor,
        });
        if (outcome.status === 'refused') {
          return reply.status(422).send(refusal(outcome.report));
        }
        return outcome.report satisfies ImportReport;
      } catch (error) {
        if (error instanceof ImportFileError) throw new HttpError(400, error.message);
        if (error instanceof ImportedMeanwhileError) throw new HttpError(409, error.message);
        throw error;
      }
    },
  );
}

/** The 422 answer: what stopped the import, with the report so the caller sees where. */
function refusal(report: ImportReport): ImportRefused {
  const n = report.invalid.length;
  const documents = n === 1 ? '1 document is' : `${n} documents are`;
  return {
    error: `${documents} invalid, so nothing was imported: fix ${n === 1 ? 'it' : 'them'}, or import only the valid ones.`,
    report,
  };
}
