import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptHostKeySchema,
  serverCreateSchema,
  serverIdSchema,
  serverListQuerySchema,
  serverListSchema,
  serverSchema,
  serverUpdateSchema,
  type Server,
} from '#shared/servers.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { clientHistorySchema } from '#shared/events.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { HttpError } from '#server/http/http-error.ts';
import { refusalOf, type WriteResult } from '#server/http/write-result.ts';
import { noContent, refusals, staleVersionAnswer } from '#server/http/route-schemas.ts';
import { listPage } from '#server/http/pages.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import {
  canReachClient,
  requireReachableClientField,
  isLimited,
  reachableClientIds,
} from '#server/auth/tag-scope.ts';
import { canUseCredential } from '#server/features/credentials/credential-scope.ts';
import type { ServerRepository } from './server-repository.ts';
import type { ServerChecks } from './server-checks.ts';
import type { ServerWrites } from './server-writes.ts';

const params = z.object({ id: serverIdSchema });

function notFound(): HttpError {
  return new HttpError(404, 'No server with that id: it may have been removed');
}

const RECORD = { noun: 'server', notFound };

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
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The server's id from the route, once its client is known to be within the person's reach:
   * a server of a client outside their tags is answered as one that does not exist.
   */
  async function reachableId(request: FastifyRequest, id: string): Promise<string> {
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
  async function answer(result: WriteResult): Promise<Server> {
    const refusal = refusalOf(result, RECORD);
    if (refusal) throw refusal;
    const server = result.status === 'done' ? await servers.get(result.id) : undefined;
    if (!server) throw notFound();
    return server;
  }

  api.get(
    '/api/servers',
    {
      schema: {
        summary: 'Servers, of every client or filtered; paged with `limit` and `cursor`',
        tags: ['servers'],
        querystring: serverListQuerySchema,
        response: { 200: serverListSchema, ...refusals },
      },
    },
    async (request) => {
      const [all, reachable] = await Promise.all([
        servers.list(request.query),
        reachableClientIds(db, accessOf(requireUser(request))),
      ]);
      const seen = reachable ? all.filter((s) => reachable.has(s.client.id)) : all;
      const { items, nextCursor } = listPage(seen, request.query, (s) => s.id);
      return { servers: items, nextCursor };
    },
  );

  api.get(
    '/api/servers/:id',
    {
      schema: {
        summary: 'One server',
        tags: ['servers'],
        params,
        response: { 200: serverSchema, ...refusals },
      },
    },
    async (request) => {
      const server = await servers.get(await reachableId(request, request.params.id));
      if (!server) throw notFound();
      return server;
    },
  );

  api.post(
    '/api/servers',
    {
      schema: {
        summary: "Add a server to a client (a client's first server becomes its primary)",
        tags: ['servers'],
        body: serverCreateSchema,
        response: { 201: serverSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const values = request.body;
      await requireReachableClientField(db, accessOf(user), values.clientId);
      await requireUsableCredential(request, values.credentialId);
      const server = await answer(await writes.create(values, actorOf(user)));
      return reply.status(201).header('location', `/api/servers/${server.id}`).send(server);
    },
  );

  api.put(
    '/api/servers/:id',
    {
      schema: {
        summary: 'Edit a server; `version` is the one it was read at',
        tags: ['servers'],
        params,
        body: serverUpdateSchema,
        response: { 200: serverSchema, ...refusals, 409: staleVersionAnswer },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const { version, ...values } = request.body;
      await requireUsableCredential(request, values.credentialId);
      return answer(await writes.update(id, values, version, actor));
    },
  );

  api.post(
    '/api/servers/:id/primary',
    {
      schema: {
        summary: "Make this server its client's primary",
        tags: ['servers'],
        params,
        response: { 200: serverSchema, ...refusals },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      return answer(await writes.makePrimary(await reachableId(request, request.params.id), actor));
    },
  );

  // Pins the key a check was offered ('host key changed'), once a person has looked at it.
  api.post(
    '/api/servers/:id/host-key',
    {
      schema: {
        summary: 'Accept the host key the last check was offered',
        tags: ['servers'],
        params,
        body: acceptHostKeySchema,
        response: {
          200: serverSchema,
          ...refusals,
          409: apiErrorSchema.describe('The server now offers a different key: check it again.'),
        },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      return answer(await writes.acceptHostKey(id, request.body.fingerprint, actor));
    },
  );

  // Who did what to this server, newest first: names of changed fields, never their values.
  api.get(
    '/api/servers/:id/history',
    {
      schema: {
        summary: "A server's history, newest first (field names, never values)",
        tags: ['servers'],
        params,
        querystring: pageQuerySchema,
        response: { 200: clientHistorySchema, ...refusals },
      },
    },
    async (request) => {
      const { id } = request.params;
      const events = await servers.history(id);
      if (!events) throw notFound();
      const access = accessOf(requireUser(request));
      if (isLimited(access)) {
        // A removed server is known by its events, which name its client.
        const owner =
          (await servers.get(id))?.client.id ?? events.find((e) => e.clientId)?.clientId;
        if (!owner || !(await canReachClient(db, access, owner))) throw notFound();
      }
      const { items, nextCursor } = listPage(events, request.query, (e) => e.seq);
      return { events: items, nextCursor };
    },
  );

  // 'Check now': answers when the check is done (a failing server takes its retries, up to
  // about 40 s), with the server as the check left it.
  api.post(
    '/api/servers/:id/check',
    {
      schema: {
        summary: 'Check now whether the server answers on SSH',
        tags: ['servers'],
        params,
        response: { 200: serverSchema, ...refusals },
      },
    },
    async (request) => {
      const id = await reachableId(request, request.params.id);
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
    },
  );

  // Last: the tests that walk every route in order (secret-leaks.test.ts) reach the others
  // while the server is still there.
  api.delete(
    '/api/servers/:id',
    {
      schema: {
        summary: 'Remove a server',
        tags: ['servers'],
        params,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const refusal = refusalOf(await writes.delete(id, actor), RECORD);
      if (refusal) throw refusal;
      return reply.status(204).send(null);
    },
  );
}
