import { sql, type Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import type { SystemProblem } from '#shared/issues.ts';

/** Who opens and resolves the problems the system notices, in the issue and its events. */
export const SYSTEM_ACTOR: NewEvent['actor'] = { id: null, name: 'system' };

/**
 * What a system problem is about, as `issue.problemKey`: `server:<id>:server_unreachable`,
 * `server:<id>:host_key_changed`, `app:<id>:run_failed`. One issue per key may be open (a
 * partial unique index), so a problem noticed again while its issue is open opens nothing.
 */
export function serverProblemKey(
  serverId: string,
  problem: 'server_unreachable' | 'host_key_changed',
): string {
  return `server:${serverId}:${problem}`;
}
/** Every problem key a server can have open. */
export function serverProblemKeys(serverId: string): string[] {
  return [
    serverProblemKey(serverId, 'server_unreachable'),
    serverProblemKey(serverId, 'host_key_changed'),
  ];
}
export function runProblemKey(appId: string): string {
  return `app:${appId}:run_failed`;
}

/** The problem a key names, for the presenter; null for an issue a person opened. */
export function problemOfKey(key: string | null): SystemProblem | null {
  if (key === null) return null;
  const problem = key.slice(key.lastIndexOf(':') + 1);
  return problem === 'server_unreachable' ||
    problem === 'host_key_changed' ||
    problem === 'run_failed'
    ? problem
    : null;
}

export interface Problem {
  key: string;
  clientId: string;
  serverId?: string;
  appId?: string;
  title: string;
  text: string;
  at: string;
}

/**
 * Opens a problem issue inside the caller's transaction, unless one is open for its key, with
 * its `issue.opened` event. Returns the new issue's id, or null when one was open already.
 */
export async function openProblem(
  trx: Transaction<Database>,
  dialect: Dialect,
  problem: Problem,
): Promise<string | null> {
  const id = newRecordId();
  const inserted = await trx
    .insertInto('issue')
    .values({
      id,
      clientId: problem.clientId,
      serverId: problem.serverId ?? null,
      appId: problem.appId ?? null,
      kind: 'problem',
      state: 'open',
      title: problem.title,
      text: problem.text,
      problemKey: problem.key,
      authorId: null,
      authorName: SYSTEM_ACTOR.name,
      assigneeId: null,
      createdAt: problem.at,
      updatedAt: problem.at,
      resolvedAt: null,
      resolvedById: null,
      resolvedByName: null,
      version: 1,
    })
    // The conflict target names the partial index by its predicate, written as a literal: SQLite
    // matches a target to a partial index only by comparing the expressions when it prepares
    // the statement, and a bound parameter ('state' = ?) matches nothing there.
    .onConflict((oc) =>
      oc.column('problemKey').where(sql.ref('state'), '=', sql.lit('open')).doNothing(),
    )
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
  await appendEvents(trx, dialect, [
    {
      kind: 'issue.opened',
      clientId: problem.clientId,
      ...(problem.serverId ? { serverId: problem.serverId } : {}),
      ...(problem.appId ? { appId: problem.appId } : {}),
      issueId: id,
      actor: SYSTEM_ACTOR,
      at: problem.at,
      fields: ['problem'],
    },
  ]);
  return id;
}

/**
 * Resolves the open issues of these problem keys inside the caller's transaction (the server
 * is reachable again, a later run succeeded), each with its `issue.resolved` event. Returns
 * how many it resolved.
 */
export async function resolveProblems(
  trx: Transaction<Database>,
  dialect: Dialect,
  keys: readonly string[],
  at: string,
): Promise<number> {
  if (keys.length === 0) return 0;
  const resolved = await trx
    .updateTable('issue')
    .set((eb) => ({
      state: 'resolved',
      resolvedAt: at,
      resolvedById: null,
      resolvedByName: SYSTEM_ACTOR.name,
      updatedAt: at,
      version: eb('version', '+', 1),
    }))
    .where('problemKey', 'in', keys)
    .where('state', '=', 'open')
    .returning(['id', 'clientId', 'serverId', 'appId'])
    .execute();
  await appendEvents(
    trx,
    dialect,
    resolved.map((issue) => ({
      kind: 'issue.resolved' as const,
      clientId: issue.clientId,
      ...(issue.serverId ? { serverId: issue.serverId } : {}),
      ...(issue.appId ? { appId: issue.appId } : {}),
      issueId: issue.id,
      actor: SYSTEM_ACTOR,
      at,
      fields: ['state'],
    })),
  );
  return resolved.length;
}
