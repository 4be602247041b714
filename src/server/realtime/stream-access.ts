import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import { roleSchema, type Access } from '#shared/people.ts';
import { parseAccessTags } from '#server/auth/access-tags.ts';
import { TOKEN_STREAM_PREFIX, tokenRole } from '#server/auth/api-tokens.ts';
import type { EventHub, StreamSink } from './event-hub.ts';

/** A tag limit in one form whatever its order: null, or its tags sorted. */
function tagsKey(tags: readonly string[] | null): string {
  return tags === null ? 'null' : JSON.stringify([...new Set(tags)].sort());
}

function sameAccess(a: Access, b: Pick<Access, 'role' | 'tags'>): boolean {
  return a.role === b.role && tagsKey(a.tags) === tagsKey(b.tags);
}

/**
 * The access of each stream's session or API token as of now, by the stream's `sessionId`
 * (session-guard.ts): absent when the session or token has gone (signed out, revoked, expired)
 * or its person was disabled. One query for the sessions, one for the tokens.
 */
export async function currentStreamAccess(
  db: Kysely<Database>,
  dialect: Dialect,
  streamIds: readonly string[],
): Promise<Map<string, Pick<Access, 'role' | 'tags'>>> {
  const now = new Date();
  const at = dialect === 'postgres' ? now : now.toISOString();
  const notDisabled = dialect === 'postgres' ? false : 0;
  const sessionIds = streamIds.filter((id) => !id.startsWith(TOKEN_STREAM_PREFIX));
  const tokenIds = streamIds
    .filter((id) => id.startsWith(TOKEN_STREAM_PREFIX))
    .map((id) => id.slice(TOKEN_STREAM_PREFIX.length));
  const valid =
    sessionIds.length === 0
      ? []
      : await db
          .selectFrom('session')
          .innerJoin('user', 'user.id', 'session.userId')
          .select(['session.id', 'user.role', 'user.tags'])
          .where('session.id', 'in', sessionIds)
          .where('session.expiresAt', '>', at)
          .where('user.disabled', '=', notDisabled)
          .execute();
  // A token's stream: while the token is there, unexpired, and its owner enabled.
  const tokens =
    tokenIds.length === 0
      ? []
      : await db
          .selectFrom('apiToken')
          .innerJoin('user', 'user.id', 'apiToken.userId')
          .select(['apiToken.id', 'user.role', 'user.tags'])
          .where('apiToken.id', 'in', tokenIds)
          .where((eb) =>
            eb.or([eb('apiToken.expiresAt', 'is', null), eb('apiToken.expiresAt', '>', at)]),
          )
          .where('user.disabled', '=', notDisabled)
          .execute();
  // Read as the session guard reads them.
  const role = (stored: string) => roleSchema.catch('viewer').parse(stored);
  return new Map([
    ...valid.map(
      (row) => [row.id, { role: role(row.role), tags: parseAccessTags(row.tags) }] as const,
    ),
    ...tokens.map(
      (row) =>
        [
          `${TOKEN_STREAM_PREFIX}${row.id}`,
          { role: tokenRole(role(row.role)), tags: parseAccessTags(row.tags) },
        ] as const,
    ),
  ]);
}

/** Whether a stream opened with `opened` may go on: its session is there with the same access. */
export async function streamMayGoOn(
  db: Kysely<Database>,
  dialect: Dialect,
  streamId: string,
  opened: Access,
): Promise<boolean> {
  const latest = (await currentStreamAccess(db, dialect, [streamId])).get(streamId);
  return latest !== undefined && sameAccess(opened, latest);
}

/**
 * Every API call checks its session; a live stream checked its session only when it opened.
 * This sweep ends streams whose session or API token has since gone (signed out, revoked,
 * expired) or whose user was disabled — also when that happened in another process, such as
 * the `user` command — and streams whose person's role or tags changed since they opened: what
 * a stream sends was decided by those, and the browser reconnects at once with the new ones.
 * A change the event log records (role, tags, disabled, signed out everywhere) already ended
 * the person's streams when the hub read it, before any later event (event-hub.ts); this sweep
 * is for what the log does not say: expiry, a revoked token, a write from outside the app.
 */
export function startStreamAccessCheck(
  hub: EventHub,
  db: Kysely<Database>,
  dialect: Dialect,
  log: FastifyBaseLogger,
  intervalMs = 2000,
): () => void {
  let running = false;
  const sweep = async () => {
    const open = hub.sessionIds();
    if (open.length === 0 || running) return;
    running = true;
    try {
      const current = await currentStreamAccess(db, dialect, open);
      const ended = new Set<StreamSink>();
      for (const sink of hub.sinks()) {
        const latest = current.get(sink.sessionId);
        if (!latest || !sameAccess(sink.access, latest)) ended.add(sink);
      }
      hub.disconnect(ended);
    } catch (error) {
      log.warn({ err: error }, 'could not check the sessions of live streams');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs).unref();
  return () => clearInterval(timer);
}
