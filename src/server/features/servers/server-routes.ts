import type { FastifyInstance } from 'fastify';
import {
  serverIdSchema,
  serverListQuerySchema,
  type Server,
  type ServerList,
} from '#shared/servers.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { ServerRepository } from './server-repository.ts';
import type { ServerChecks } from './server-checks.ts';

function serverId(params: unknown): string {
  return parseInput(serverIdSchema, (params as { id?: unknown }).id, 'id');
}

function notFound(): HttpError {
  return new HttpError(404, 'No server with that id: it may have been removed');
}

/** Servers: every server of every client, or one, and a check of one. Staff only. */
export function registerServerRoutes(
  app: FastifyInstance,
  deps: { servers: ServerRepository; checks: ServerChecks },
): void {
  const { servers, checks } = deps;

  app.get('/api/servers', async (request): Promise<ServerList> => {
    const filter = parseInput(serverListQuerySchema, request.query, 'query');
    return { servers: await servers.list(filter) };
  });

  app.get('/api/servers/:id', async (request): Promise<Server> => {
    const server = await servers.get(serverId(request.params));
    if (!server) throw notFound();
    return server;
  });

  // 'Check now': answers when the check is done (a failing server takes its retries, up to
  // about 40 s), with the server as the check left it.
  app.post('/api/servers/:id/check', async (request): Promise<Server> => {
    const id = serverId(request.params);
    const outcome = await checks.check(id, actorOf(requireUser(request)));
    if (outcome === 'not_found') throw notFound();
    if (outcome === 'no_host') {
      throw new HttpError(400, 'host: The server has no host to check', {
        fields: { host: 'The server has no host to check' },
      });
    }
    const server = await servers.get(id);
    if (!server) throw notFound();
    return server;
  });
}
