import type { FastifyInstance } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { UserSessions } from '#shared/account.ts';
import type { Db } from '#server/db/database.ts';
import type { Auth } from '#server/auth/auth.ts';
import { requireUser } from '#server/auth/session-guard.ts';
import { toIso } from '#server/db/codec.ts';

/**
 * The signed-in user's own sessions. Listed from the table rather than through Better Auth's
 * list endpoint, which hands session tokens to the browser; signing others out goes through
 * Better Auth. Live streams of the ended sessions stop within the stream access sweep.
 */
export function registerSessionRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth }): void {
  const { db, auth } = deps;

  app.get('/api/me/sessions', async (request): Promise<UserSessions> => {
    const user = requireUser(request);
    const now = new Date();
    const rows = await db.kysely
      .selectFrom('session')
      .select(['id', 'createdAt', 'updatedAt', 'expiresAt', 'ipAddress', 'userAgent'])
      .where('userId', '=', user.id)
      .where('expiresAt', '>', db.dialect === 'postgres' ? now : now.toISOString())
      .orderBy('updatedAt', 'desc')
      .execute();
    return {
      sessions: rows.map((row) => ({
        id: row.id,
        createdAt: toIso(row.createdAt),
        lastSeenAt: toIso(row.updatedAt),
        expiresAt: toIso(row.expiresAt),
        ipAddress: row.ipAddress,
        userAgent: row.userAgent,
        current: row.id === request.sessionId,
      })),
    };
  });

  app.post('/api/me/sessions/revoke-others', async (request) => {
    requireUser(request);
    await auth.api.revokeOtherSessions({ headers: fromNodeHeaders(request.headers) });
    return { ok: true };
  });
}
