import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { EventHub } from '#server/realtime/event-hub.ts';
import { actorOf } from '#server/auth/session-guard.ts';
import { ApiTokens } from './token-repository.ts';
import { registerTokenRoutes } from './token-routes.ts';

/**
 * Personal API tokens, put together for app.ts in one call: the routes, and the audit of a
 * token's use of a secret, recorded when a request that was let at one succeeds, before its
 * answer leaves (as a client's password read is).
 */
export function registerTokenFeature(app: FastifyInstance, deps: { db: Db; hub: EventHub }): void {
  const tokens = new ApiTokens(deps.db, () => void deps.hub.wake());
  registerTokenRoutes(app, { db: deps.db, tokens });
  app.addHook('onSend', async (request, reply, payload) => {
    const user = request.user;
    if (!user?.token?.secretUsed || reply.statusCode >= 400) return payload;
    // Once per request, whatever the hook is asked again (an error answer after this one).
    user.token.secretUsed = false;
    await tokens.recordSecretUse(user.id, user.token.scope, actorOf(user));
    return payload;
  });
}
