import type { Db } from '#server/db/database.ts';
import { RECENT_SIGN_IN_MINUTES } from '#shared/second-factors.ts';

/**
 * Whether the session was signed in within the last RECENT_SIGN_IN_MINUTES: Better Auth's
 * fresh-session rule (`session.freshAge`), counted from the session's creation, which its daily
 * refresh does not move. An unknown session (or none: an API token's request) is not recent.
 */
export async function signedInRecently(db: Db, sessionId: string | null): Promise<boolean> {
  if (sessionId === null) return false;
  const found = await db.kysely
    .selectFrom('session')
    .select('createdAt')
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (!found) return false;
  return Date.now() - new Date(found.createdAt).getTime() < RECENT_SIGN_IN_MINUTES * 60_000;
}
