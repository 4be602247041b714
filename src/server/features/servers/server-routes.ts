import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import { canReachClient, isLimited, reachableClientIds } from '#server/auth/tag-scope.ts';
import { canUseCredential } from '#server/features/credentials/credential-scope.ts';
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
  const db = app.parts.db.kysely;

  /**
   * The server's id from the route, once its client is known to be within the person's reach:
   * a server of a client outside their tags is answered as one that does not exist.
   */
  async function reachableId(request: FastifyRequest): Promise<string> {
    const id = serverId(request.params);
    const access = accessOf(requireUser(request));
    if (!isLimited(access)) return id;
    const row = await db
      .selectFrom('server')
      .select('clientId')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || !(await canReachClient(db, access, row.clientId))) throw notFound();
    return id;
  }

  /** A credential the person may not see is refused as one the vault does not have. */
  async function requireUsableCredential(request: FastifyRequest, id: string | null) {
    if (id === null || (await canUseCredential(db, accessOf(requireUser(request)), id))) return;
    const message = 'No credential with that id in the vault';
    throw new HttpError(400, `credentialId: ${message}`, { fields: { credentialId: message } });
  }

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
    const [all, reachable] = await Promise.all([
      servers.list(filter),
      reachableClientIds(db, accessOf(requireUser(request))),
    ]);
    return { servers: reachable ? all.filter((s) => reachable.has(s.client.id)) : all };
  });

  app.get('/api/servers/:id', async (request): Promise<Server> => {
    const server = await servers.get(await reachableId(request));
    if (!server) throw notFound();
    return server;
  });

  app.post('/api/servers', async (request, reply) => {
    const user = requireUser(request);
    const actor = actorOf(user);
    const values = parseInput(serverCreateSchema, request.body);
    // Answered as for a client that does not exist.
    if (!(await canReachClient(db, accessOf(user), values.clientId))) {
      const message = 'No client with that id: it may have been deleted';
      throw new HttpError(400, `clientId: ${message}`, { fields: { clientId: message } });
    }
    await requireUsableCredential(request, values.credentialId);
    const server = await answer(await writes.create(values, actor));
    return reply.status(201).header('location', `/api/servers/${server.id}`).send(server);
  });

  app.put('/api/servers/:id', async (request): Promise<Server> => {
    const actor = actorOf(requireUser(request));
    const id = await reachableId(request);
    const { version, ...values } = parseInput(serverUpdateSchema, request.body);
    await requireUsableCredential(request, values.credentialId);
    return answer(await writes.update(id, values, version, actor));
  });

  app.post('/api/servers/:id/primary', async (request): Promise<Server> => {
    const actor = actorOf(requireUser(request));
    return answer(await writes.makePrimary(await reachableId(request), actor));
  });

  // Pins the key a check was offered ('host key changed'), once a person has looked at it.
  app.post('/api/servers/:id/host-key', async (request): Promise<Server> => {
    const actor = actorOf(requireUser(request));
    const id = await reachableId(request);
    const { fingerprint } = parseInput(acceptHostKeySchema, request.body);
    return answer(await writes.acceptHostKey(id, fingerprint, actor));
  });

  // Who did what to this server, newest first: names of changed fields, never their values.
  app.get('/api/servers/:id/history', async (request): Promise<ClientHistory> => {
    const id = serverId(request.params);
    const events = await servers.history(id);
    if (!events) throw notFound();
    const access = accessOf(requireUser(request));
    if (isLimited(access)) {
      // A removed server is known by its events, which name its client.
      const owner = (await servers.get(id))?.client.id ?? events.find((e) => e.clientId)?.clientId;
      if (!owner || !(await canReachClient(db, access, owner))) throw notFound();
    }
    return { events };
  });

  // 'Check now': answers when the check is done (a failing server takes its retries, up to
  // about 40 s), with the server as the check left it.
  app.post('/api/servers/:id/check', async (request): Promise<Server> => {
    const id = await reachableId(request);
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
    const refusal = refusalOf(await writes.delete(await reachableId(request), actor));
    if (refusal) throw refusal;
    return reply.status(204).send();
  });
}
