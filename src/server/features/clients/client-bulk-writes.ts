import { sql, type Transaction } from 'kysely';
import { applyTagChange } from '#shared/client-bulk.ts';
import type { Actor } from '#shared/events.ts';
import type { Access } from '#shared/people.ts';
import type { Database } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import { toStringList } from '#server/db/codec.ts';
import type { NewEvent } from '#server/realtime/event-log.ts';
import { parseSnapshots, restoreServers, snapshotServers } from '../servers/server-rows.ts';
import { relinkableCredentials } from '../credentials/credential-scope.ts';
import { chunks, IDS_PER_STATEMENT, ROWS_PER_INSERT } from '#server/db/chunks.ts';
import { clientLabel } from '#shared/clients.ts';

/**
 * What a bulk write did. Anything but `done` wrote nothing: the write returns before its first
 * statement that changes a row, so the request is all or nothing.
 */
export type BulkOutcome =
  | { status: 'done'; changed: string[] }
  /** Ids no client (or, for a restore, no client and no deleted client) has. */
  | { status: 'not_found'; missing: string[] }
  /** A tag add that would leave these clients (named as people know them) with too many tags. */
  | { status: 'too_many_tags'; names: string[] }
  /** A restore of clients that are not deleted (restored already, or never deleted). */
  | { status: 'not_deleted'; ids: string[] };

export type TagChange = { add: readonly string[] } | { remove: readonly string[] };

/** Where the bulk writes run: a group-commit transaction, its time, its event recorder. */
export interface BulkContext {
  trx: Transaction<Database>;
  dialect: Dialect;
  at: string;
  actor: Actor;
  record: (event: NewEvent) => void;
}

/** The form's limit (tagsSchema): a bulk add may not take a client past it. */
const MAX_TAGS = 50;

/** The ids in one order, so two bulk writes over the same clients lock rows in the same order. */
function sorted(ids: readonly string[]): string[] {
  return [...ids].sort();
}

/**
 * The client rows under `ids`, locked on PostgreSQL until the transaction ends, and the ids
 * no client was found for.
 */
async function lockedClients(context: BulkContext, ids: readonly string[]) {
  const rows = [];
  for (const chunk of chunks(sorted(ids), IDS_PER_STATEMENT)) {
    let query = context.trx.selectFrom('client').selectAll().where('id', 'in', chunk).orderBy('id');
    if (context.dialect === 'postgres') query = query.forUpdate();
    rows.push(...(await query.execute()));
  }
  return {
    rows,
    missing: missingFrom(
      ids,
      rows.map((row) => row.id),
    ),
  };
}

function missingFrom(ids: readonly string[], found: Iterable<string>): string[] {
  const present = new Set(found);
  return ids.filter((id) => !present.has(id));
}

/**
 * Adds or removes tags on every client under `ids`. A client whose tags this leaves as they
 * were is not written and gets no event; each changed one is written as an update writes it
 * (its version goes up by one) with one `client.updated` event naming `tags`. Applied to the
 * current version of each client: there is no version to compare, since the person chose a
 * tag, not a state of each client.
 */
export async function changeTags(
  context: BulkContext,
  ids: readonly string[],
  change: TagChange,
): Promise<BulkOutcome> {
  const { rows, missing } = await lockedClients(context, ids);
  if (missing.length > 0) return { status: 'not_found', missing };

  const updates: { id: string; tags: string; before: string[] }[] = [];
  const tooMany: string[] = [];
  for (const row of rows) {
    const before = toStringList(row.tags);
    const after = applyTagChange(before, change);
    if (after.length === before.length && after.every((tag, i) => tag === before[i])) continue;
    if (after.length > MAX_TAGS) tooMany.push(clientLabel(row));
    updates.push({ id: row.id, tags: JSON.stringify(after), before });
  }
  if (tooMany.length > 0) return { status: 'too_many_tags', names: tooMany };

  const { trx, at, actor } = context;
  // One statement per chunk rather than one per client: each client gets its own tags.
  for (const chunk of chunks(updates, ROWS_PER_INSERT)) {
    const tags = sql<string>`case ${sql.ref('id')} ${sql.join(
      chunk.map((u) => sql`when ${u.id} then ${u.tags}`),
      sql` `,
    )} end`;
    await trx
      .updateTable('client')
      .set((eb) => ({ tags, updatedAt: at, updatedBy: actor.id, version: eb('version', '+', 1) }))
      .where(
        'id',
        'in',
        chunk.map((u) => u.id),
      )
      .execute();
  }
  // In the order the request named them, as the deletes and restores are recorded.
  const written = new Map(updates.map((u) => [u.id, u.before]));
  const changed = ids.filter((id) => written.has(id));
  for (const id of changed) {
    const tagsBefore = written.get(id)!;
    context.record({
      kind: 'client.updated',
      clientId: id,
      actor,
      at,
      fields: ['tags'],
      tagsBefore,
    });
  }
  return { status: 'done', changed };
}

/**
 * Deletes every client under `ids` with its servers, each kept in `deletedClient` (its last
 * row and its servers; the credentials they use stay in the vault) so the one Undo can restore
 * them all, with one `client.deleted` event each.
 */
export async function deleteClients(
  context: BulkContext,
  ids: readonly string[],
): Promise<BulkOutcome> {
  const { rows, missing } = await lockedClients(context, ids);
  if (missing.length > 0) return { status: 'not_found', missing };

  const { trx, at, actor } = context;
  // Taken before the delete, which takes the servers with it.
  const servers = await snapshotServers(trx, sorted(ids));
  for (const chunk of chunks(sorted(ids), IDS_PER_STATEMENT)) {
    await trx.deleteFrom('client').where('id', 'in', chunk).execute();
    // An older snapshot of the same id (deleted, restored, deleted again) gives way.
    await trx.deleteFrom('deletedClient').where('id', 'in', chunk).execute();
  }
  for (const chunk of chunks(rows, ROWS_PER_INSERT)) {
    await trx
      .insertInto('deletedClient')
      .values(
        chunk.map((row) => ({
          ...row,
          servers: JSON.stringify(servers.get(row.id) ?? []),
          deletedAt: at,
          deletedBy: actor.id,
        })),
      )
      .execute();
  }
  for (const id of ids) {
    context.record({ kind: 'client.deleted', clientId: id, actor, at, fields: [] });
  }
  return { status: 'done', changed: [...ids] };
}

/**
 * Puts every deleted client under `ids` back with its id, version, fields and servers, with one
 * `client.restored` event each: the Undo of a bulk delete. All of them or none: an id that is
 * not deleted is `not_deleted`, one nothing is known under `not_found`. A server's credential
 * comes back with it when `access` may have it (relinkableCredentials).
 */
export async function restoreClients(
  context: BulkContext,
  ids: readonly string[],
  access: Access,
): Promise<BulkOutcome> {
  const { trx, dialect, at, actor } = context;
  const snapshots = [];
  for (const chunk of chunks(sorted(ids), IDS_PER_STATEMENT)) {
    let query = trx.selectFrom('deletedClient').selectAll().where('id', 'in', chunk).orderBy('id');
    if (dialect === 'postgres') query = query.forUpdate();
    snapshots.push(...(await query.execute()));
  }
  const absent = missingFrom(
    ids,
    snapshots.map((row) => row.id),
  );
  if (absent.length > 0) {
    const existing = new Set<string>();
    for (const chunk of chunks(absent, IDS_PER_STATEMENT)) {
      const found = await trx.selectFrom('client').select('id').where('id', 'in', chunk).execute();
      for (const { id } of found) existing.add(id);
    }
    const missing = absent.filter((id) => !existing.has(id));
    if (missing.length > 0) return { status: 'not_found', missing };
    return { status: 'not_deleted', ids: absent };
  }

  // The people named may have been removed since; the rows must not point at nobody.
  const people = [...new Set(snapshots.flatMap((row) => [row.createdBy, row.updatedBy]))].filter(
    (id): id is string => id !== null,
  );
  const known = new Set<string>();
  for (const chunk of chunks(people, IDS_PER_STATEMENT)) {
    const found = await trx.selectFrom('user').select('id').where('id', 'in', chunk).execute();
    for (const { id } of found) known.add(id);
  }
  const person = (id: string | null) => (id !== null && known.has(id) ? id : null);
  for (const chunk of chunks(snapshots, ROWS_PER_INSERT)) {
    await trx
      .insertInto('client')
      .values(
        chunk.map(
          ({ deletedAt: _deletedAt, deletedBy: _deletedBy, servers: _servers, ...row }) => ({
            ...row,
            createdBy: person(row.createdBy),
            updatedBy: person(row.updatedBy),
          }),
        ),
      )
      .execute();
  }
  const servers = snapshots.flatMap((row) => parseSnapshots(row.servers));
  // Decided before the servers are back, by the vault as the client's deletion left it.
  const relinkable = await relinkableCredentials(
    trx,
    access,
    servers.flatMap((server) => (server.credentialId === null ? [] : [server.credentialId])),
  );
  const deletedAt = new Map(snapshots.map((row) => [row.id, row.deletedAt]));
  await restoreServers(trx, dialect, servers, person, (credentialId, clientId) =>
    relinkable(credentialId, deletedAt.get(clientId)!),
  );
  for (const chunk of chunks(sorted(ids), IDS_PER_STATEMENT)) {
    await trx.deleteFrom('deletedClient').where('id', 'in', chunk).execute();
  }
  for (const id of ids) {
    context.record({ kind: 'client.restored', clientId: id, actor, at, fields: [] });
  }
  return { status: 'done', changed: [...ids] };
}
