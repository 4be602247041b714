import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#server/db/schema.ts';
import type { Dialect } from '#server/db/database.ts';
import type { EventHub } from './event-hub.ts';

/**
 * Every API call checks its session; a live stream checked its session only when it opened.
 * This sweep ends streams whose session has since gone (signed out, revoked, expired) or whose
 * user was disabled — also when that happened in another process, such as the `user` command.
 * One query per sweep for all streams.
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
      const now = new Date();
      const valid = await db
        .selectFrom('session')
        .innerJoin('user', 'user.id', 'session.userId')
        .select('session.id')
        .where('session.id', 'in', open)
        .where('session.expiresAt', '>', dialect === 'postgres' ? now : now.toISOString())
        .where('user.disabled', '=', dialect === 'postgres' ? false : 0)
        .execute();
      const keep = new Set(valid.map((row) => row.id));
      hub.disconnectSessions(new Set(open.filter((id) => !keep.has(id))));
    } catch (error) {
      log.warn({ err: error }, 'could not check the sessions of live streams');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs).unref();
  return () => clearInterval(timer);
}
