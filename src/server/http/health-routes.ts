import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '#shared/api-error.ts';
import { databaseReachable, type Db } from '#server/db/database.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './database-unavailable.ts';
import { PUBLIC_ACCESS } from './openapi-document.ts';

/**
 * For load balancers and orchestrators, public: `/healthz` answers while the process runs,
 * `/readyz` only while the database answers too.
 */
export function registerHealthRoutes(app: FastifyInstance, db: Db): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['health'];
  api.get(
    '/healthz',
    {
      schema: {
        summary: 'The process is running (public)',
        tags,
        security: PUBLIC_ACCESS,
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  api.get(
    '/readyz',
    {
      schema: {
        summary: 'The process is running and its database answers (public)',
        tags,
        security: PUBLIC_ACCESS,
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: apiErrorSchema.describe('The database does not answer: try again.'),
        },
      },
    },
    async (_request, reply) => {
      if (await databaseReachable(db, 3000)) return { status: 'ready' as const };
      return reply.status(503).send({ error: DATABASE_UNAVAILABLE_MESSAGE });
    },
  );
}
