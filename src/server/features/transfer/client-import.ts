import type { Selectable, Transaction } from 'kysely';
import type { ClientValues } from '#shared/clients.ts';
import { IMPORT_EVENT_FIELD, type ImportReport } from '#shared/client-transfer.ts';
import type { ClientTable, Database } from '#server/db/schema.ts';
import type { Db } from '#server/db/database.ts';
import { clientPasswordPlace, type SecretBox } from '#server/secrets.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import {
  clientColumns,
  newClientId,
  newRecordStamps,
  today,
} from '#server/features/clients/client-repository.ts';
import { presentClient } from '#server/features/clients/client-presenter.ts';
import { changedFields } from '#server/features/clients/changed-fields.ts';
import { mapImportFile, type ImportCandidate } from './import-mapping.ts';

/** Rows per insert statement: well under the bound-parameter limits of both databases. */
const ROWS_PER_INSERT = 200;
const IDS_PER_LOOKUP = 500;

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
  creates: { index: number; id: string; values: ClientValues }[];
  updates: {
    index: number;
    row: Selectable<ClientTable>;
    values: ClientValues;
    fields: string[];
  }[];
  unchanged: number;
  /** Created ids that a deleted client (kept for undo) had: the import replaces its snapshot. */
  replacesDeleted: string[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A password equal to the stored one is no change (our own export with passwords, imported
 * again): drop it, so the client counts as unchanged and no password change is recorded.
 */
function withoutSamePassword(
  values: ClientValues,
  row: { id: string; serverPassword: string | null },
  box: SecretBox,
): ClientValues {
  const given = values.server.password;
  const sealed = row.serverPassword;
  const stored = sealed === null ? '' : box.open(sealed, clientPasswordPlace(row.id));
  if (given === undefined || given !== stored) return values;
  const { password: _same, ...server } = values.server;
  return { ...values, server };
}

/** Sorts candidates into new, changed and unchanged clients, by id, as the database has them. */
async function plan(
  trx: Transaction<Database>,
  db: Db,
  box: SecretBox,
  candidates: readonly ImportCandidate[],
): Promise<Plan> {
  const ids = candidates.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  const existing = new Map<string, Selectable<ClientTable>>();
  const deleted = new Set<string>();
  for (const chunk of chunks(ids, IDS_PER_LOOKUP)) {
    let query = trx.selectFrom('client').selectAll().where('id', 'in', chunk);
    // On PostgreSQL another instance could edit a row between this read and the update.
    if (db.dialect === 'postgres') query = query.forUpdate();
    for (const row of await query.execute()) existing.set(row.id, row);
    const snapshots = await trx
      .selectFrom('deletedClient')
      .select('id')
      .where('id', 'in', chunk)
      .execute();
    for (const { id } of snapshots) deleted.add(id);
  }
  const result: Plan = { creates: [], updates: [], unchanged: 0, replacesDeleted: [] };
  for (const { index, id, values: given } of candidates) {
    const row = id === undefined ? undefined : existing.get(id);
    if (!row) {
      const newId = id ?? newClientId();
      if (deleted.has(newId)) result.replacesDeleted.push(newId);
      result.creates.push({ index, id: newId, values: given });
      continue;
    }
    const values = withoutSamePassword(given, row, box);
    const before = presentClient({ ...row, createdByEmail: null, updatedByEmail: null });
    const fields = changedFields(before, values);
    if (fields.length === 0) result.unchanged += 1;
    else result.updates.push({ index, row, values, fields });
  }
  return result;
}

/**
 * Imports a parsed file (see import-mapping.ts for the shapes) in ONE transaction: every
 * valid document is created (unknown id) or updated (known id, fields differ), each with its
 * event in the log, or nothing is written at all. Passwords are sealed as the create route
 * seals them; a document without one keeps the stored password.
 */
export async function importClients(
  db: Db,
  box: SecretBox,
  data: unknown,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const mapped = mapImportFile(data);
  const report = (p: Plan, applied: boolean): ImportReport => ({
    applied,
    total: mapped.total,
    created: p.creates.length,
    updated: p.updates.length,
    unchanged: p.unchanged,
    invalid: mapped.invalid,
  });
  const refuse = !options.dryRun && mapped.invalid.length > 0 && !options.skipInvalid;
  if (options.dryRun || refuse) {
    const p = await db.kysely.transaction().execute((trx) => plan(trx, db, box, mapped.candidates));
    return { status: options.dryRun ? 'dry_run' : 'refused', report: report(p, false) };
  }

  return db.kysely.transaction().execute(async (trx) => {
    const p = await plan(trx, db, box, mapped.candidates);
    const at = new Date().toISOString();
    const startDefault = today();
    const total = p.creates.length + p.updates.length;
    let done = 0;
    const events: (NewEvent & { index: number })[] = [];
    const base = { actor: options.actor, at };

    if (p.replacesDeleted.length > 0) {
      for (const chunk of chunks(p.replacesDeleted, IDS_PER_LOOKUP)) {
        await trx.deleteFrom('deletedClient').where('id', 'in', chunk).execute();
      }
    }
    for (const chunk of chunks(p.creates, ROWS_PER_INSERT)) {
      await trx
        .insertInto('client')
        .values(
          chunk.map(({ id, values }) => ({
            id,
            ...clientColumns(values, startDefault, db.dialect),
            serverPassword: values.server.password
              ? box.seal(values.server.password, clientPasswordPlace(id))
              : null,
            ...newRecordStamps(options.actor, at),
          })),
        )
        .execute();
      for (const { index, id } of chunk) {
        events.push({
          ...base,
          index,
          kind: 'client.created',
          clientId: id,
          fields: [IMPORT_EVENT_FIELD],
        });
      }
      done += chunk.length;
      options.onProgress?.(done, total);
    }
    for (const { index, row, values, fields } of p.updates) {
      const password = values.server.password;
      await trx
        .updateTable('client')
        .set({
          ...clientColumns(values, row.startDate, db.dialect),
          // Omitted: keep the stored password. Empty: remove it (as the edit form does).
          ...(password === undefined
            ? {}
            : {
                serverPassword:
                  password === '' ? null : box.seal(password, clientPasswordPlace(row.id)),
              }),
          updatedAt: at,
          updatedBy: options.actor.id,
          version: row.version + 1,
        })
        .where('id', '=', row.id)
        .execute();
      events.push({
        ...base,
        index,
        kind: 'client.updated',
        clientId: row.id,
        fields: [...fields, IMPORT_EVENT_FIELD],
      });
      done += 1;
      if (done % ROWS_PER_INSERT === 0 || done === total) options.onProgress?.(done, total);
    }
    // Last, as every write takes the event lock last (see appendEvent); in file order.
    events.sort((a, b) => a.index - b.index);
    await appendEvents(trx, db.dialect, events);
    return { status: 'applied', report: report(p, true) } as const;
  });
}
