import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import { userSessionsSchema, type UserSessions } from '#shared/account.ts';
import { refusals } from '#server/http/route-schemas.ts';
import type { Db } from '#server/db/database.ts';
import type { Auth } from '#server/auth/auth.ts';
import { requireUser } from '#server/auth/session-guard.ts';
import { forgetTrustedDevices } from '#server/auth/trusted-devices.ts';
import { toIso } from '#server/db/codec.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { listPage } from '#server/http/pages.ts';

/**
 * The signed-in user's own sessions. Listed from the table rather than through Better Auth's
 * list endpoint, which hands session tokens to the browser; signing others out goes through
 * Better Auth. Live streams of the ended sessions stop within the stream access sweep.
 */
export function registerSessionRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth }): void {
  const { db, auth } = deps;

  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  api.get(
    '/api/me/sessions',
    {
      schema: {
        summary: "The signed-in person's own sessions (devices), the current one marked",
        tags,
        querystring: pageQuerySchema,
        response: { 200: userSessionsSchema, ...refusals },
      },
    },
    async (request): Promise<UserSessions> => {
      const user = requireUser(request);
      const now = new Date();
      const rows = await db.kysely
        .selectFrom('session')
        .select(['id', 'createdAt', 'updatedAt', 'expiresAt', 'ipAddress', 'userAgent'])
        .where('userId', '=', user.id)
        .where('expiresAt', '>', db.dialect === 'postgres' ? now : now.toISOString())
        .orderBy('updatedAt', 'desc')
        .execute();
      const sessions = rows.map((row) => ({
        id: row.id,
        createdAt: toIso(row.createdAt),
        lastSeenAt: toIso(row.updatedAt),
        expiresAt: toIso(row.expiresAt),
        ipAddress: row.ipAddress,
        userAgent: row.userAgent,
        current: row.id === request.sessionId,
      }));
      const { items, nextCursor } = listPage(sessions, request.query, (session) => session.id);
      return { sessions: items, nextCursor };
    },
  );

  api.post(
    '/api/me/sessions/revoke-others',
    {
      schema: {
        summary: "Sign out the person's other sessions",
        tags,
        response: { 200: z.object({ ok: z.literal(true) }), ...refusals },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await auth.api.revokeOtherSessions({ headers: fromNodeHeaders(request.headers) });
      // The device being signed out may be a lost one that is trusted to skip the code; this
      // browser asks for a code at its next sign-in too, as the others do.
      await forgetTrustedDevices(db.kysely, user.id);
      return { ok: true as const };
    },
  );
}
