import type { FastifyInstance } from 'fastify';
import {
  IMPORT_MAX_BYTES,
  type ImportRefused,
  type ImportReport,
} from '#shared/client-transfer.ts';
import type { Db } from '#server/db/database.ts';
import type { SecretBox } from '#server/secrets.ts';
import { HttpError } from '#server/http/http-error.ts';
import { REFUSE_CROSS_SITE } from '#server/http/csrf.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { ClientRepository } from '#server/features/clients/client-repository.ts';
import { exportClients } from './client-export.ts';
import { importClients } from './client-import.ts';
import { ImportFileError } from './import-mapping.ts';

/** `?flag=1` (or `true`) turns an option on. */
function flag(query: unknown, name: string): boolean {
  const value = (query as Record<string, unknown>)[name];
  return value === '1' || value === 'true';
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

  // A download. With ?secrets=1 the passwords are in it, and each read is in the event log.
  app.get('/api/clients/export', { config: REFUSE_CROSS_SITE }, async (request, reply) => {
    const actor = actorOf(requireUser(request));
    const secrets = flag(request.query, 'secrets');
    const { file, passwordsRead } = await exportClients(db, box, clients, { secrets, actor });
    if (passwordsRead > 0) onCommitted();
    const day = file.exportedAt.slice(0, 10);
    const name = `clients-${day}${secrets ? '-with-passwords' : ''}.json`;
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(file, null, 2));
  });

  // The body is the file itself. ?dryRun=1 only reports; otherwise one transaction applies
  // everything, or nothing when a document is invalid (unless ?skipInvalid=1).
  app.post('/api/clients/import', { bodyLimit: IMPORT_MAX_BYTES }, async (request, reply) => {
    const actor = actorOf(requireUser(request));
    try {
      const outcome = await importClients(clients, request.body, {
        dryRun: flag(request.query, 'dryRun'),
        skipInvalid: flag(request.query, 'skipInvalid'),
        actor,
      });
      if (outcome.status === 'refused') {
        return reply.status(422).send(refusal(outcome.report));
      }
      return outcome.report satisfies ImportReport;
    } catch (error) {
      if (error instanceof ImportFileError) throw new HttpError(400, error.message);
      throw error;
    }
  });
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
