import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { canSeeTags, type Access } from '#shared/people.ts';
import type { Database } from '#server/db/schema.ts';
import { toStringList } from '#server/db/codec.ts';
import { chunks, IDS_PER_STATEMENT } from '#server/db/chunks.ts';
import { HttpError } from '#server/http/http-error.ts';
import { NO_SUCH_CLIENT } from '#server/http/write-result.ts';

/**
 * Access by tag on the server: a person whose `tags` is a list sees and acts on only the
 * clients carrying one of those tags, and their servers. Every feature asks here; a client out
 * of reach is answered exactly as a client that does not exist (404, "not found"), so a limited
 * person learns nothing of the others, not even that they exist.
 */

type Reader = Kysely<Database> | Transaction<Database>;

export function isLimited(access: Pick<Access, 'tags'>): boolean {
  return access.tags !== null;
}

/**
 * The tags of the clients under `ids`, live or deleted (a deleted client keeps its reach, for
 * its history and its restore). An id neither has is left out.
 */
export async function clientTagsOf(
  db: Reader,
  ids: Iterable<string>,
): Promise<Map<string, string[]>> {
  const tags = new Map<string, string[]>();
  for (const chunk of chunks([...new Set(ids)], IDS_PER_STATEMENT)) {
    const live = await db
      .selectFrom('client')
      .select(['id', 'tags'])
      .where('id', 'in', chunk)
      .execute();
    const gone = await db
      .selectFrom('deletedClient')
      .select(['id', 'tags'])
      .where('id', 'in', chunk)
      .execute();
    // A live client wins over an old snapshot under the same id.
    for (const row of [...gone, ...live]) tags.set(row.id, toStringList(row.tags));
  }
  return tags;
}

/** The ids of `ids` that no client within `access`'s reach has (unknown ids included). */
export async function idsOutOfReach(
  db: Reader,
  access: Pick<Access, 'tags'>,
  ids: readonly string[],
): Promise<string[]> {
  if (!isLimited(access)) return [];
  const tags = await clientTagsOf(db, ids);
  return ids.filter((id) => {
    const found = tags.get(id);
    return found === undefined || !canSeeTags(access, found);
  });
}

/** Whether the client (live or deleted) is within `access`'s reach; an unknown id is not. */
export async function canReachClient(
  db: Reader,
  access: Pick<Access, 'tags'>,
  id: string,
): Promise<boolean> {
  return (await idsOutOfReach(db, access, [id])).length === 0;
}

/**
 * For a write that names the client it belongs to (a new server, app or issue): a 400 on
 * `clientId` when that client is out of reach, worded as for one that does not exist.
 */
export async function requireReachableClientField(
  db: Reader,
  access: Access,
  clientId: string,
): Promise<void> {
  if (await canReachClient(db, access, clientId)) return;
  throw new HttpError(400, `clientId: ${NO_SUCH_CLIENT}`, { fields: { clientId: NO_SUCH_CLIENT } });
}

/**
 * The ids of every live client within reach, or null for a person with no limit. Read whole
 * (ids and tags only): lists of servers and credentials are filtered with it.
 */
export async function reachableClientIds(db: Reader, access: Access): Promise<Set<string> | null> {
  if (!isLimited(access)) return null;
  const rows = await db.selectFrom('client').select(['id', 'tags']).execute();
  return new Set(
    rows.filter((row) => canSeeTags(access, toStringList(row.tags))).map((row) => row.id),
  );
}

/** 'Must include one of your tags: eu, us', or undefined when `tags` keep one of theirs. */
export function ownTagProblem(access: Access, tags: readonly string[]): string | undefined {
  if (canSeeTags(access, tags)) return undefined;
  return `Must include one of your tags: ${access.tags!.join(', ')}`;
}

/**
 * A client a limited person creates or edits must keep one of their tags: otherwise they would
 * lose it the moment they saved. A 400 naming the `tags` field, as the form shows it.
 */
export function requireOwnTag(access: Access, tags: readonly string[]): void {
  const problem = ownTagProblem(access, tags);
  if (problem) throw new HttpError(400, `tags: ${problem}`, { fields: { tags: problem } });
}

/**
 * A short name for a person's tag set, the same for everyone with the same tags: the key of
 * their cached client list and part of its ETag (a hash, so no tag text ends up in a header).
 */
export function tagSetKey(access: Pick<Access, 'tags'>): string {
  if (access.tags === null) return 'all';
  const sorted = [...new Set(access.tags)].sort();
  return `t${createHash('sha256').update(JSON.stringify(sorted)).digest('base64url').slice(0, 16)}`;
}
