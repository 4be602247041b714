import type { Kysely } from 'kysely';
import type { Credential } from '#shared/credentials.ts';
import type { Access } from '#shared/people.ts';
import type { Database } from '#server/db/schema.ts';
import { idsOutOfReach, isLimited } from '#server/auth/tag-scope.ts';
import { chunks, IDS_PER_STATEMENT } from '#server/db/chunks.ts';

/**
 * Access by tag for the vault. A person limited to some tags sees a credential when a server of
 * a client within their reach uses it. One that no server uses is theirs when they made it and
 * nobody else has changed it since (ownCredentialIds): they must be able to see a credential
 * they just made to put it on one of their servers. Any other unused credential is seen only by
 * people without a limit: it may be a hidden client's, whose server was removed or whose client
 * was deleted (and may be restored with it). A credential they see lists only the servers they
 * can see.
 */
export function scopedCredential(
  credential: Credential,
  reachable: (clientId: string) => boolean,
  own: ReadonlySet<string>,
): Credential | undefined {
  if (credential.servers.length === 0) return own.has(credential.id) ? credential : undefined;
  const servers = credential.servers.filter((server) => reachable(server.client.id));
  return servers.length === 0 ? undefined : { ...credential, servers };
}

/**
 * Of `ids` (every credential when not given), those `userId` made and nobody else has changed
 * since: a rename or rotation by someone else makes the secret no longer only theirs.
 */
export async function ownCredentialIds(
  db: Kysely<Database>,
  userId: string,
  ids?: readonly string[],
): Promise<Set<string>> {
  let query = db
    .selectFrom('credential')
    .select('id')
    .where('createdBy', '=', userId)
    .where('updatedBy', '=', userId);
  if (ids !== undefined) query = query.where('id', 'in', ids);
  return new Set((await query.execute()).map((row) => row.id));
}

type CredentialServer = Credential['servers'][number];

/** The servers of `servers` whose clients are within the person's reach. */
export async function serversInReach(
  db: Kysely<Database>,
  access: Access,
  servers: readonly CredentialServer[],
): Promise<CredentialServer[]> {
  if (!isLimited(access)) return [...servers];
  const ids = servers.map((server) => server.client.id);
  const out = new Set(await idsOutOfReach(db, access, ids));
  return servers.filter((server) => !out.has(server.client.id));
}

/** `credential` as a limited person may see it (see scopedCredential), for one credential. */
export async function credentialInReach(
  db: Kysely<Database>,
  access: Access,
  credential: Credential,
): Promise<Credential | undefined> {
  if (!isLimited(access)) return credential;
  if (credential.servers.length === 0) {
    const own = await ownCredentialIds(db, access.userId, [credential.id]);
    return own.has(credential.id) ? credential : undefined;
  }
  const servers = await serversInReach(db, access, credential.servers);
  return servers.length === 0 ? undefined : { ...credential, servers };
}

/** The clients whose servers use each of the credentials `ids`; one no server uses is absent. */
async function clientsUsing(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const using = new Map<string, string[]>();
  for (const chunk of chunks(ids, IDS_PER_STATEMENT)) {
    const rows = await db
      .selectFrom('server')
      .select(['credentialId', 'clientId'])
      .where('credentialId', 'in', chunk)
      .execute();
    for (const { credentialId, clientId } of rows) {
      if (credentialId !== null)
        using.set(credentialId, [...(using.get(credentialId) ?? []), clientId]);
    }
  }
  return using;
}

/** Of `ids`, those a limited person may see and use (see scopedCredential), given `using`. */
async function usableAmong(
  db: Kysely<Database>,
  access: Access,
  ids: readonly string[],
  using: ReadonlyMap<string, readonly string[]>,
): Promise<Set<string>> {
  const clients = [...new Set([...using.values()].flat())];
  const outOfReach = new Set(await idsOutOfReach(db, access, clients));
  const own = new Set<string>();
  for (const chunk of chunks(
    ids.filter((id) => !using.has(id)),
    IDS_PER_STATEMENT,
  )) {
    for (const id of await ownCredentialIds(db, access.userId, chunk)) own.add(id);
  }
  return new Set(
    ids.filter((id) => {
      const users = using.get(id);
      return users ? users.some((clientId) => !outOfReach.has(clientId)) : own.has(id);
    }),
  );
}

/**
 * Which of the credentials `ids` a person's restored servers may point at again, as of a
 * client's deletion: one they may use now (canUseCredential), or one no server uses that nobody
 * changed since the deletion, which is what the Undo puts back. A credential that went on to a
 * client out of their reach, or was rotated since, stays off the restored server (as one removed
 * from the vault does): pointing at it would let them reveal or rotate a secret that is no
 * longer the one their client had.
 */
export async function relinkableCredentials(
  db: Kysely<Database>,
  access: Access,
  ids: readonly string[],
): Promise<(id: string, deletedAt: string | Date) => boolean> {
  if (!isLimited(access) || ids.length === 0) return () => true;
  const wanted = [...new Set(ids)];
  const using = await clientsUsing(db, wanted);
  const usable = await usableAmong(db, access, wanted, using);
  const changedAt = new Map<string, number>();
  for (const chunk of chunks(wanted, IDS_PER_STATEMENT)) {
    const rows = await db
      .selectFrom('credential')
      .select(['id', 'updatedAt'])
      .where('id', 'in', chunk)
      .execute();
    for (const row of rows) changedAt.set(row.id, new Date(row.updatedAt).getTime());
  }
  return (id, deletedAt) => {
    if (usable.has(id)) return true;
    const changed = changedAt.get(id);
    return !using.has(id) && changed !== undefined && changed <= new Date(deletedAt).getTime();
  };
}

/** Whether the vault credential `id` is one the person may see and use (see scopedCredential). */
export async function canUseCredential(
  db: Kysely<Database>,
  access: Access,
  id: string,
): Promise<boolean> {
  if (!isLimited(access)) return true;
  return (await usableAmong(db, access, [id], await clientsUsing(db, [id]))).has(id);
}
