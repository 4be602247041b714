import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiTokenListSchema,
  createTokenInputSchema,
  createdTokenSchema,
  tokenIdParamsSchema,
} from '#shared/tokens.ts';
import { HttpError } from '#server/http/http-error.ts';
import { noContent, refusals } from '#server/http/route-schemas.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { ApiTokens } from './token-repository.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { listPage } from '#server/http/pages.ts';

/**
 * The signed-in person's own API tokens. Session-only (SESSION_ONLY_ROUTES in
 * auth/api-tokens.ts): a token can neither list, make nor revoke tokens.
 */
export function registerTokenRoutes(app: FastifyInstance, deps: { tokens: ApiTokens }): void {
  const { tokens } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/me/tokens',
    {
      schema: {
        summary: 'Your API tokens, newest first (never the tokens themselves)',
        tags: ['tokens'],
        querystring: pageQuerySchema,
        response: { 200: apiTokenListSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { items, nextCursor } = listPage(
        await tokens.list(user.id),
        request.query,
        (token) => token.id,
      );
      return reply.header('cache-control', 'no-store').send({ tokens: items, nextCursor });
    },
  );

  api.post(
    '/api/me/tokens',
    {
      schema: {
        summary: 'Make an API token; the answer holds the token, this once',
        tags: ['tokens'],
        body: createTokenInputSchema,
        response: { 201: createdTokenSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const created = await tokens.create(user.id, request.body, actorOf(user));
      // The token is in this answer only: no cache may keep it.
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );

  api.delete(
    '/api/me/tokens/:id',
    {
      schema: {
        summary: 'Revoke one of your API tokens: the next request with it is refused',
        tags: ['tokens'],
        params: tokenIdParamsSchema,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (!(await tokens.revoke(user.id, request.params.id, actorOf(user)))) {
        throw new HttpError(404, 'No token with that id: it may have been revoked already');
      }
      return reply.status(204).send(null);
    },
  );
}
