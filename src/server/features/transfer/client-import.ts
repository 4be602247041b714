import type { ClientValues } from '#shared/clients.ts';
import type { ImportProblem, ImportReport } from '#shared/client-transfer.ts';
import type {
  ClientImportWrites,
  ClientRepository,
  StoredClient,
} from '#server/features/clients/client-repository.ts';
import type { NewEvent } from '#server/realtime/event-log.ts';
import { changedFields } from '#server/features/clients/changed-fields.ts';
import {
  serverListChanged,
  withKeptHostKeys,
  type ListedServer,
} from '#server/features/servers/server-list-writes.ts';
import { mapImportFile, type ImportCandidate, type MappedImport } from './import-mapping.ts';
import type { FileCredential } from './import-servers.ts';

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
  credentials: ClientImportWrites['credentials'][number][];
  creates: ClientImportWrites['creates'][number][];
  updates: ClientImportWrites['updates'][number][];
  unchanged: number;
  warnings: ImportProblem[];
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

/**
 * A server list's credentials as they will be: one the vault has under the file's id is used
 * as it is (an import never changes a stored credential); one it lacks is created from the
 * file when the file carries its secret, and otherwise the server gets none, with a warning.
 */
function resolveCredentials(
  index: number,
  id: string | undefined,
  servers: readonly ListedServer[],
  file: ReadonlyMap<string, FileCredential>,
  vault: ReadonlySet<string>,
): { servers: ListedServer[]; created: string[]; warnings: ImportProblem[] } {
  const created: string[] = [];
  const warnings: ImportProblem[] = [];
  const resolved = servers.map((server, n) => {
    const credentialId = server.credentialId;
    if (credentialId === null || vault.has(credentialId)) return server;
    const credential = file.get(credentialId)!;
    if (credential.material !== null) {
      created.push(credentialId);
      return server;
    }
    warnings.push({
      index,
      ...(id === undefined ? {} : { id }),
      reason: `servers.${n}.credentialId: The file has no secret for credential "${credential.name}" and the vault has no credential with this id, so the server is imported without one`,
    });
    return { ...server, credentialId: null };
  });
  return { servers: resolved, created, warnings };
}

/**
 * Sorts candidates into new, changed and unchanged clients, by id, as the database has them,
 * and the credentials of the file that the written clients need and the vault lacks.
 */
function plan(
  candidates: readonly ImportCandidate[],
  file: ReadonlyMap<string, FileCredential>,
  stored: ReadonlyMap<string, StoredClient>,
  vault: ReadonlySet<string>,
): Plan {
  const result: Plan = { credentials: [], creates: [], updates: [], unchanged: 0, warnings: [] };
  const needed = new Set<string>();
  for (const { index, id, values: given, servers: listed } of candidates) {
    const found = id === undefined ? undefined : stored.get(id);
    if (listed !== undefined) {
      const { servers, created, warnings } = resolveCredentials(index, id, listed, file, vault);
      result.warnings.push(...warnings);
      if (!found) {
        result.creates.push({ index, id, values: given, servers });
        for (const credentialId of created) needed.add(credentialId);
        continue;
      }
      const wanted = withKeptHostKeys(found.servers, servers);
      // The primary's fields are in the server list's comparison, under one name.
      const fields = changedFields(found.client, given).filter((f) => !f.startsWith('server.'));
      if (serverListChanged(found.servers, wanted)) fields.push('servers');
      if (fields.length === 0) {
        result.unchanged += 1;
        continue;
      }
      result.updates.push({ index, before: found.client, values: given, fields, servers: wanted });
      for (const credentialId of created) needed.add(credentialId);
      continue;
    }
    if (!found) {
      result.creates.push({ index, id, values: given });
      continue;
    }
    const values = withoutSamePassword(given, found.password);
    const fields = changedFields(found.client, values);
    if (fields.length === 0) result.unchanged += 1;
    else result.updates.push({ index, before: found.client, values, fields });
  }
  for (const credentialId of needed) {
    const { id, name, kind, material } = file.get(credentialId)!;
    result.credentials.push({ id, name, kind, material: material! });
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
  return importMapped(clients, await mapImportFile(data), options);
}

/** importClients for a file mapped already (the route checks a limited person's reach first). */
export async function importMapped(
  clients: ClientRepository,
  mapped: MappedImport,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const refuse = !options.dryRun && mapped.invalid.length > 0 && !options.skipInvalid;
  const write = !options.dryRun && !refuse;
  const ids = mapped.candidates.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  const p = await clients.importClients(
    ids,
    [...mapped.credentials.keys()],
    (stored, vault) => plan(mapped.candidates, mapped.credentials, stored, vault),
    { write, actor: options.actor, onProgress: options.onProgress },
  );
  const report: ImportReport = {
    applied: write,
    total: mapped.total,
    created: p.creates.length,
    updated: p.updates.length,
    unchanged: p.unchanged,
    credentialsCreated: p.credentials.length,
    invalid: mapped.invalid,
    warnings: p.warnings,
  };
  return { status: options.dryRun ? 'dry_run' : refuse ? 'refused' : 'applied', report };
}
