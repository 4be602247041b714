import type { FastifyInstance } from 'fastify';
import {
  createTokenInputSchema,
  tokenIdParamsSchema,
  type ApiTokenList,
  type CreatedToken,
} from '#shared/tokens.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { ApiTokens } from './token-repository.ts';

/**
 * The signed-in person's own API tokens. Session-only (SESSION_ONLY_ROUTES in
 * auth/api-tokens.ts): a token can neither list, make nor revoke tokens.
 */
export function registerTokenRoutes(app: FastifyInstance, deps: { tokens: ApiTokens }): void {
  const { tokens } = deps;

  app.get('/api/me/tokens', async (request, reply) => {
    const user = requireUser(request);
    const answer: ApiTokenList = { tokens: await tokens.list(user.id) };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  app.post('/api/me/tokens', async (request, reply) => {
    const user = requireUser(request);
    const input = parseInput(createTokenInputSchema, request.body);
    const created: CreatedToken = await tokens.create(user.id, input, actorOf(user));
    // The token is in this answer only: no cache may keep it.
    return reply.status(201).header('cache-control', 'no-store').send(created);
  });

  app.delete('/api/me/tokens/:id', async (request, reply) => {
    const user = requireUser(request);
    const { id } = parseInput(tokenIdParamsSchema, request.params, 'params');
    if (!(await tokens.revoke(user.id, id, actorOf(user)))) {
      throw new HttpError(404, 'No token with that id: it may have been revoked already');
    }
    return reply.status(204).send();
  });
}
