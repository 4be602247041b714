import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiTokenListSchema,
  createTokenInputSchema,
  createdTokenSchema,
  tokenIdParamsSchema,
  TOKEN_NEEDS_RECENT_SIGN_IN,
} from '#shared/tokens.ts';
import { SESSION_NOT_FRESH_CODE } from '#shared/api-error.ts';
import { RECENT_SIGN_IN_MINUTES } from '#shared/second-factors.ts';
import type { Db } from '#server/db/database.ts';
import { signedInRecently } from '#server/auth/recent-sign-in.ts';
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
export function registerTokenRoutes(
  app: FastifyInstance,
  deps: { db: Db; tokens: ApiTokens },
): void {
  const { db, tokens } = deps;
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
        summary: `Make an API token; the answer holds the token, this once. Needs a sign-in from the last ${RECENT_SIGN_IN_MINUTES} minutes`,
        tags: ['tokens'],
        body: createTokenInputSchema,
        response: { 201: createdTokenSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // A token lets a script in without the password or a second factor, and stays through a
      // password reset: a session taken over long after its sign-in must not make one.
      if (!(await signedInRecently(db, request.sessionId))) {
        throw new HttpError(403, TOKEN_NEEDS_RECENT_SIGN_IN, { code: SESSION_NOT_FRESH_CODE });
      }
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
