import type { ClientValues } from '#shared/clients.ts';
import type { ImportReport } from '#shared/client-transfer.ts';
import type {
  ClientImportWrites,
  ClientRepository,
  StoredClient,
} from '#server/features/clients/client-repository.ts';
import type { NewEvent } from '#server/realtime/event-log.ts';
import { changedFields } from '#server/features/clients/changed-fields.ts';
import { mapImportFile, type ImportCandidate } from './import-mapping.ts';

export interface ImportOptions {
  /** Only report what would happen. */
  dryRun: boolean;
  /** Apply the valid documents even though others are invalid; otherwise apply nothing. */
  skipInvalid: boolean;
  actor: NewEvent['actor'];
  /** Called as the writes go on (for a progress line); `total` counts clients to write. */
  onProgress?: (done: number, total: number) => void;
}

export type ImportOutcome =
  | { status: 'applied'; report: ImportReport }
  | { status: 'dry_run'; report: ImportReport }
  /** Invalid documents and no `skipInvalid`: nothing was written. */
  | { status: 'refused'; report: ImportReport };

interface Plan {
  creates: ClientImportWrites['creates'][number][];
  updates: ClientImportWrites['updates'][number][];
  unchanged: number;
}

/**
 * A password equal to the stored one is no change (our own export with passwords, imported
 * again): drop it, so the client counts as unchanged and no password change is recorded.
 */
function withoutSamePassword(values: ClientValues, storedPassword: string): ClientValues {
  if (values.server.password !== storedPassword) return values;
  const { password: _same, ...server } = values.server;
  return { ...values, server };
}

/** Sorts candidates into new, changed and unchanged clients, by id, as the database has them. */
function plan(
  candidates: readonly ImportCandidate[],
  stored: ReadonlyMap<string, StoredClient>,
): Plan {
  const result: Plan = { creates: [], updates: [], unchanged: 0 };
  for (const { index, id, values: given } of candidates) {
    const found = id === undefined ? undefined : stored.get(id);
    if (!found) {
      result.creates.push({ index, id, values: given });
      continue;
    }
    const values = withoutSamePassword(given, found.password);
    const fields = changedFields(found.client, values);
    if (fields.length === 0) result.unchanged += 1;
    else result.updates.push({ index, before: found.client, values, fields });
  }
  return result;
}

/**
 * Imports a parsed file (see import-mapping.ts for the shapes) in ONE transaction: every
 * valid document is created (unknown id) or updated (known id, fields differ), each with its
 * event in the log, or nothing is written at all. The repository stores them as the client
 * routes do; a document without a password keeps the stored one.
 */
export async function importClients(
  clients: ClientRepository,
  data: unknown,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const mapped = mapImportFile(data);
  const refuse = !options.dryRun && mapped.invalid.length > 0 && !options.skipInvalid;
  const write = !options.dryRun && !refuse;
  const ids = mapped.candidates.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  const p = await clients.importClients(ids, (stored) => plan(mapped.candidates, stored), {
    write,
    actor: options.actor,
    onProgress: options.onProgress,
  });
  const report: ImportReport = {
    applied: write,
    total: mapped.total,
    created: p.creates.length,
    updated: p.updates.length,
    unchanged: p.unchanged,
    invalid: mapped.invalid,
  };
  return { status: options.dryRun ? 'dry_run' : refuse ? 'refused' : 'applied', report };
}
