import type { FastifyInstance } from 'fastify';
import {
  serverIdSchema,
  serverListQuerySchema,
  type Server,
  type ServerList,
} from '#shared/servers.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import type { ServerRepository } from './server-repository.ts';

/** Reading servers: every server of every client, or one. Staff only (the session guard). */
export function registerServerRoutes(
  app: FastifyInstance,
  deps: { servers: ServerRepository },
): void {
  const { servers } = deps;

  app.get('/api/servers', async (request): Promise<ServerList> => {
    const filter = parseInput(serverListQuerySchema, request.query, 'query');
    return { servers: await servers.list(filter) };
  });

  app.get('/api/servers/:id', async (request): Promise<Server> => {
    const id = parseInput(serverIdSchema, (request.params as { id?: unknown }).id, 'id');
    const server = await servers.get(id);
    if (!server) throw new HttpError(404, 'No server with that id: it may have been removed');
    return server;
  });
}
