import type { Kysely } from 'kysely';
import type { ClientEvent } from '#shared/events.ts';
import { canSeeTags, type Access } from '#shared/people.ts';
import type { Database } from '#server/db/schema.ts';
import { toStringList } from '#server/db/codec.ts';
import { chunks, IDS_PER_STATEMENT } from '#server/db/chunks.ts';
import { clientTagsOf } from '#server/auth/tag-scope.ts';

/** The audit trail of people and of webhook endpoints: administrators only. */
function adminsOnly(kind: string): boolean {
  return kind.startsWith('person.') || kind.startsWith('webhook.');
}

/**
 * Who may receive an event on the live stream, as of when the hub read it:
 * - `admins`: the audit trail (`person.*`, `webhook.*`), for administrators only;
 * - `maker`: people with no tag limit, and the person who made a credential no server uses
 *   and nobody else has changed (features/credentials/credential-scope.ts says why). Once
 *   someone else has changed it, or it is deleted, `madeBy` names its maker, who saw it until
 *   then: limited by tag, they get a reload signal instead, so it leaves their screens;
 * - `clients`: a person with no tag limit, or one whose tags meet one of these tag lists (the
 *   event's client, or for a credential the clients of the servers that use it). An empty list
 *   (a client no longer known) reaches only people with no limit.
 */
export type EventScope =
  | { audience: 'admins' }
  | { audience: 'maker'; userId: string | null; madeBy?: string }
  | {
      audience: 'clients';
      tags: readonly (readonly string[])[];
      /**
       * The client's tags changed, and these were its tags before: a limited person who could
       * see it then and may no longer gets a reload signal instead (no id, no kind), so the
       * client leaves their screens. Nobody else hears of it.
       */
      tagsBefore?: readonly string[];
    };

/** Whether a person the event is kept from should be told to reload what they see. */
export function mustReload(access: Access, scope: EventScope): boolean {
  if (access.tags === null) return false;
  if (scope.audience === 'maker') return scope.madeBy === access.userId;
  return (
    scope.audience === 'clients' &&
    scope.tagsBefore !== undefined &&
    canSeeTags(access, scope.tagsBefore)
  );
}

export function canReceive(access: Access, scope: EventScope): boolean {
  switch (scope.audience) {
    case 'admins':
      return access.role === 'admin';
    case 'maker':
      return access.tags === null || access.userId === scope.userId;
    case 'clients':
      return access.tags === null || scope.tags.some((tags) => canSeeTags(access, tags));
  }
}

/** What of an event decides its scope. */
export type ScopedEvent = Pick<ClientEvent, 'kind' | 'clientId' | 'credentialId'> & {
  tagsBefore: readonly string[] | null;
};

/** Who made each credential, and whether someone else has changed it since. */
interface Making {
  madeBy: string;
  changedByOthers: boolean;
}

/**
 * For each credential id: the tags of the clients whose servers use it (none: unused), and who
 * made it; for one deleted, its maker as its `credential.created` event names them.
 */
async function credentialUsers(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<{ users: Map<string, string[][]>; makers: Map<string, Making> }> {
  const users = new Map<string, string[][]>();
  const makers = new Map<string, Making>();
  for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
    const [rows, made] = await Promise.all([
      db
        .selectFrom('server')
        .innerJoin('client', 'client.id', 'server.clientId')
        .select(['server.credentialId', 'client.tags'])
        .where('server.credentialId', 'in', chunk)
        .execute(),
      db
        .selectFrom('credential')
        .select(['id', 'createdBy', 'updatedBy'])
        .where('id', 'in', chunk)
        .execute(),
    ]);
    for (const row of rows) {
      const list = users.get(row.credentialId!) ?? [];
      list.push(toStringList(row.tags));
      users.set(row.credentialId!, list);
    }
    for (const row of made) {
      if (row.createdBy === null) continue;
      makers.set(row.id, {
        madeBy: row.createdBy,
        changedByOthers: row.updatedBy !== row.createdBy,
      });
    }
    // Deleted ones only: their maker is in the event log.
    const stored = new Set(made.map((row) => row.id));
    const deleted = chunk.filter((id) => !stored.has(id));
    if (deleted.length === 0) continue;
    const createdEvents = await db
      .selectFrom('event')
      .select(['credentialId', 'actorId'])
      .where('kind', '=', 'credential.created')
      .where('credentialId', 'in', deleted)
      .execute();
    for (const row of createdEvents) {
      if (row.actorId === null) continue;
      makers.set(row.credentialId!, { madeBy: row.actorId, changedByOthers: true });
    }
  }
  return { users, makers };
}

/**
 * The scope of each event of a page, read with a few queries for the whole page (the tags of
 * the clients it names, and of the clients using the credentials it names), whoever listens.
 */
export async function scopesOf(
  db: Kysely<Database>,
  events: readonly ScopedEvent[],
): Promise<EventScope[]> {
  const clientIds = new Set<string>();
  const credentialIds = new Set<string>();
  for (const event of events) {
    if (adminsOnly(event.kind)) continue;
    if (event.kind.startsWith('credential.') && event.credentialId) {
      credentialIds.add(event.credentialId);
    } else if (event.clientId) clientIds.add(event.clientId);
  }
  const [clients, credentials] = await Promise.all([
    clientIds.size > 0 ? clientTagsOf(db, clientIds) : new Map<string, string[]>(),
    credentialIds.size > 0
      ? credentialUsers(db, [...credentialIds])
      : { users: new Map<string, string[][]>(), makers: new Map<string, Making>() },
  ]);
  return events.map((event): EventScope => {
    if (adminsOnly(event.kind)) return { audience: 'admins' };
    if (event.kind.startsWith('credential.') && event.credentialId) {
      const users = credentials.users.get(event.credentialId);
      if (users !== undefined) return { audience: 'clients', tags: users };
      const making = credentials.makers.get(event.credentialId);
      if (making === undefined) return { audience: 'maker', userId: null };
      return making.changedByOthers
        ? { audience: 'maker', userId: null, madeBy: making.madeBy }
        : { audience: 'maker', userId: making.madeBy };
    }
    const tags = event.clientId ? clients.get(event.clientId) : undefined;
    return {
      audience: 'clients',
      tags: tags === undefined ? [] : [tags],
      ...(event.tagsBefore === null ? {} : { tagsBefore: event.tagsBefore }),
    };
  });
}
