import type { FastifyInstance } from 'fastify';
import {
  acceptHostKeySchema,
  serverCreateSchema,
  serverIdSchema,
  serverListQuerySchema,
  serverUpdateSchema,
  type Server,
  type ServerList,
} from '#shared/servers.ts';
import type { ClientHistory } from '#shared/events.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { ServerRepository } from './server-repository.ts';
import type { ServerChecks } from './server-checks.ts';
import type { ServerWriteResult, ServerWrites } from './server-writes.ts';

function serverId(params: unknown): string {
  return parseInput(serverIdSchema, (params as { id?: unknown }).id, 'id');
}

function notFound(): HttpError {
  return new HttpError(404, 'No server with that id: it may have been removed');
}

/** The error a write that did not go through answers with; nothing for one that did. */
function refusalOf(result: ServerWriteResult): HttpError | undefined {
  switch (result.status) {
    case 'done':
      return undefined;
    case 'not_found':
      return notFound();
    case 'conflict': {
      const by = result.by ? ` by ${result.by}` : '';
      return new HttpError(
        409,
        `This server was changed${by} after you opened it. Your changes were not saved: reload it and edit again.`,
      );
    }
    case 'refused':
      return result.field === undefined
        ? new HttpError(result.code, result.message)
        : new HttpError(result.code, `${result.field}: ${result.message}`, {
            fields: { [result.field]: result.message },
          });
  }
}

/**
 * Servers: every server of every client, or one, its history, a check of one, and their
 * writes (add, edit, remove, make primary, accept a new host key). Staff only, as every route
 * behind the session guard; the writes go through the CSRF check as every write does.
 */
export function registerServerRoutes(
  app: FastifyInstance,
  deps: { servers: ServerRepository; checks: ServerChecks; writes: ServerWrites },
): void {
  const { servers, checks, writes } = deps;

  /** The server as a write left it, or the write's refusal. */
  async function answer(result: ServerWriteResult): Promise<Server> {
    const refusal = refusalOf(result);
    if (refusal) throw refusal;
    const server = result.status === 'done' ? await servers.get(result.id) : undefined;
    if (!server) throw notFound();
    return server;
  }

  app.get('/api/servers', async (request): Promise<ServerList> => {
    const filter = parseInput(serverListQuerySchema, request.query, 'query');
    return { servers: await servers.list(filter) };
  });

  app.get('/api/servers/:id', async (request): Promise<Server> => {
    const server = await servers.get(serverId(request.params));
    if (!server) throw notFound();
    return server;
  });

  app.post('/api/servers', async (request, reply) => {
    const actor = actorOf(requireUser(request));
    const values = parseInput(serverCreateSchema, request.body);
    const server = await answer(await writes.create(values, actor));
    return reply.status(201).header('location', `/api/servers/${server.id}`).send(server);
  });

  app.put('/api/servers/:id', async (request): Promise<Server> => {
    const actor = actorOf(requireUser(request));
    const id = serverId(request.params);
    const { version, ...values } = parseInput(serverUpdateSchema, request.body);
    return answer(await writes.update(id, values, version, actor));
  });

  app.post('/api/servers/:id/primary', async (request): Promise<Server> => {
    const actor = actorOf(requireUser(request));
    return answer(await writes.makePrimary(serverId(request.params), actor));
  });

  // Pins the key a check was offered ('host key changed'), once a person has looked at it.
  app.post('/api/servers/:id/host-key', async (request): Promise<Server> => {
    const actor = actorOf(requireUser(request));
    const id = serverId(request.params);
    const { fingerprint } = parseInput(acceptHostKeySchema, request.body);
    return answer(await writes.acceptHostKey(id, fingerprint, actor));
  });

  // Who did what to this server, newest first: names of changed fields, never their values.
  app.get('/api/servers/:id/history', async (request): Promise<ClientHistory> => {
    const events = await servers.history(serverId(request.params));
    if (!events) throw notFound();
    return { events };
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

  // Last: the tests that walk every route in order (secret-leaks.test.ts) reach the others
  // while the server is still there.
  app.delete('/api/servers/:id', async (request, reply) => {
    const actor = actorOf(requireUser(request));
    const refusal = refusalOf(await writes.delete(serverId(request.params), actor));
    if (refusal) throw refusal;
    return reply.status(204).send();
  });
}
