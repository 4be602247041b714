import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientCommandsQuerySchema } from '#shared/servers.ts';
import {
  clientCommandsSchema,
  clientIdSchema,
  clientFormSchema,
  clientListQuerySchema,
  clientListSchema,
  clientPasswordSchema,
  clientSchema,
  clientSummaryListSchema,
  clientUpdateSchema,
  summarizeClient,
  type Client,
  type ClientList,
  type ClientSummaryList,
  matchesLookup,
} from '#shared/clients.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { clientHistorySchema } from '#shared/events.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { filterClients } from '#shared/client-search.ts';
import { HttpError } from '#server/http/http-error.ts';
import { noContent, refusals, staleVersionAnswer } from '#server/http/route-schemas.ts';
import { NO_SUCH_CLIENT, staleVersion } from '#server/http/write-result.ts';
import { listPage, wantsPage } from '#server/http/pages.ts';
import { REFUSE_CROSS_SITE } from '#server/http/csrf.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import { commandsFor, maySeeSecrets } from '#server/auth/secret-access.ts';
import { canSeeTags, type Access } from '#shared/people.ts';
import type { ClientRepository } from './client-repository.ts';
import { withSourcesInReach } from './client-history.ts';
import { buildCommands, type CommandContext } from './deploy-command.ts';
import {
  ClientListCache,
  EVERYONE,
  etagMatches,
  gzippedBody,
  type Audience,
} from './client-list-cache.ts';
import { canReachClient, requireOwnTag, tagSetKey } from '#server/auth/tag-scope.ts';
import type { DeployTokens } from '#server/features/account/deploy-tokens.ts';
import type { ServerRepository } from '#server/features/servers/server-repository.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

const params = z.object({ id: clientIdSchema });
const tags = ['clients'];

function notFound(): HttpError {
  return new HttpError(404, NO_SUCH_CLIENT);
}

/** The clients a person's list holds: all, or those carrying one of their tags. */
function audienceOf(access: Access): Audience {
  if (access.tags === null) return EVERYONE;
  return { key: tagSetKey(access), includes: (client) => canSeeTags(access, client.tags) };
}

export function registerClientRoutes(
  app: FastifyInstance,
  deps: {
    clients: ClientRepository;
    servers: ServerRepository;
    tokens: DeployTokens;
    deployCommandTemplate: string;
  },
): void {
  const { clients, servers, tokens, deployCommandTemplate } = deps;
  const db = app.parts.db.kysely;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The client's id from the route, once it is known to be within the person's reach: a client
   * outside their tags (live or deleted) is answered as one that does not exist.
   */
  async function reachableId(
    request: FastifyRequest,
    id: string,
    // A factory: an error captures its stack when made, which costs more than the check.
    refusal: () => HttpError = notFound,
  ): Promise<string> {
    if (!(await canReachClient(db, accessOf(requireUser(request)), id))) throw refusal();
    return id;
  }

  const listCache = new ClientListCache(app.parts.db, () => clients.list());

  // `?q=` filters as the search box does (name, code, tag, description, host); `?view=summary`
  // answers with what the list shows of each client. Each form is served from one serialised
  // copy per change, with an ETag: a browser that has the current list gets 304 and no body.
  api.get(
    '/api/clients',
    {
      schema: {
        summary: 'Every client in full, or `?view=summary`, or those a search `?q=` finds',
        description:
          'Scripts find clients by `tag`, `code` or primary server `host`, and page with `limit` and `cursor`. The whole list (no `q`, lookup or page) is answered with an ETag: `If-None-Match` with the current one gets 304.',
        tags,
        querystring: clientListQuerySchema,
        response: {
          200: z.union([clientListSchema, clientSummaryListSchema]),
          304: noContent,
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const { view, q } = query;
      const list = await listCache.current(audienceOf(accessOf(requireUser(request))));
      const lookup =
        query.tag !== undefined || query.code !== undefined || query.host !== undefined;
      if (q !== undefined || lookup || wantsPage(query)) {
        const all = await listCache.clients(list);
        const found = filterClients(all, q ?? '').filter((client) => matchesLookup(client, query));
        const { items, nextCursor } = listPage(found, query, (c) => c.id);
        return view === 'summary'
          ? ({ clients: items.map(summarizeClient), nextCursor } satisfies ClientSummaryList)
          : ({ clients: items, nextCursor } satisfies ClientList);
      }
      const cached = await listCache.body(list, view);
      reply
        .header('etag', cached.etag)
        // Private: a shared proxy must not keep one person's answer for another.
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding');
      if (etagMatches(request.headers['if-none-match'], cached.etag)) {
        return reply.status(304).send(null);
      }
      // The serialised copy goes out as the bytes it is: Fastify neither serialises nor checks
      // a body that is bytes already. The `?q=` answers above go through the schema.
      const raw: FastifyReply = reply.type(JSON_TYPE);
      // 4.5 MB of JSON at 10,000 clients is about 0.7 MB gzipped, compressed once per change.
      if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return raw.header('content-encoding', 'gzip').send(await gzippedBody(cached));
      }
      return raw.send(cached.body);
    },
  );

  api.get(
    '/api/clients/:id',
    {
      schema: { summary: 'One client', tags, params, response: { 200: clientSchema, ...refusals } },
    },
    async (request): Promise<Client> => {
      const client = await clients.get(request.params.id);
      if (!client || !canSeeTags(accessOf(requireUser(request)), client.tags)) throw notFound();
      return client;
    },
  );

  api.post(
    '/api/clients',
    {
      schema: {
        summary: 'Add a client (with its primary server)',
        tags,
        body: clientFormSchema,
        response: { 201: clientSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const values = request.body;
      requireOwnTag(accessOf(user), values.tags);
      const client = await clients.create(values, actor);
      return reply.status(201).header('location', `/api/clients/${client.id}`).send(client);
    },
  );

  api.put(
    '/api/clients/:id',
    {
      schema: {
        summary: 'Edit a client; `version` is the one it was read at',
        tags,
        params,
        body: clientUpdateSchema,
        response: { 200: clientSchema, ...refusals, 409: staleVersionAnswer },
      },
    },
    async (request): Promise<Client> => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const id = await reachableId(request, request.params.id);
      const { version, ...values } = request.body;
      requireOwnTag(accessOf(user), values.tags);
      const result = await clients.update(id, values, version, actor);
      if (result.status === 'not_found') throw notFound();
      if (result.status === 'conflict') throw staleVersion('client', result.current.updatedBy);
      return result.client;
    },
  );

  api.post(
    '/api/clients/:id/duplicate',
    {
      schema: {
        summary: 'Copy a client under a new id, its name marked as a clone',
        tags,
        params,
        response: { 201: clientSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const copy = await clients.duplicate(await reachableId(request, request.params.id), actor);
      if (!copy) throw notFound();
      return reply.status(201).header('location', `/api/clients/${copy.id}`).send(copy);
    },
  );

  api.delete(
    '/api/clients/:id',
    {
      schema: {
        summary: 'Delete a client (it can be restored)',
        tags,
        params,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const deleted = await clients.delete(await reachableId(request, request.params.id), actor);
      if (!deleted) throw notFound();
      return reply.status(204).send(null);
    },
  );

  // Undo of a delete: the same id, version and history, with a `client.restored` event.
  api.post(
    '/api/clients/:id/restore',
    {
      schema: {
        summary: 'Restore a deleted client: the same id, version and history',
        tags,
        params,
        response: {
          200: clientSchema,
          ...refusals,
          409: apiErrorSchema.describe('The client is not deleted.'),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const nothingToRestore = () =>
        new HttpError(404, 'No deleted client with that id: there is nothing to restore');
      const id = await reachableId(request, request.params.id, nothingToRestore);
      const result = await clients.restore(id, actor, accessOf(user));
      if (result.status === 'not_found') throw nothingToRestore();
      if (result.status === 'not_deleted') {
        throw new HttpError(409, 'This client is not deleted: it was restored already');
      }
      return reply.status(200).send(result.client);
    },
  );

  // Separate from the client on purpose: reading a password is an explicit, recorded act.
  api.get(
    '/api/clients/:id/password',
    {
      config: REFUSE_CROSS_SITE,
      schema: {
        summary: "The client's server password (recorded in its history and the audit trail)",
        tags,
        params,
        response: { 200: clientPasswordSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const secret = await clients.readPassword(
        await reachableId(request, request.params.id),
        actor,
      );
      if (!secret) throw notFound();
      return reply.header('cache-control', 'no-store').send(secret);
    },
  );

  // Who did what to this client, newest first: names of changed fields, never their values.
  api.get(
    '/api/clients/:id/history',
    {
      schema: {
        summary: "A client's history, newest first (field names, never values)",
        tags,
        params,
        querystring: pageQuerySchema,
        response: { 200: clientHistorySchema, ...refusals },
      },
    },
    async (request) => {
      const events = await clients.history(await reachableId(request, request.params.id));
      if (!events) throw notFound();
      const shown = await withSourcesInReach(db, accessOf(requireUser(request)), events);
      const { items, nextCursor } = listPage(shown, request.query, (e) => e.seq);
      return { events: items, nextCursor };
    },
  );

  // The commands for the client's primary server, or for `?serverId=`, one of its others.
  api.get(
    '/api/clients/:id/commands',
    {
      config: REFUSE_CROSS_SITE,
      schema: {
        summary: "The deployment and SSH commands for the client's primary server, or `serverId`",
        description:
          'The deployment command carries the access token: it is left out (`missing`) for a role without `secret`.',
        tags,
        params,
        querystring: clientCommandsQuerySchema,
        response: { 200: clientCommandsSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { id } = request.params;
      const { serverId } = request.query;
      const client = await clients.get(id);
      if (!client || !canSeeTags(accessOf(user), client.tags)) throw notFound();
      const server = await commandServer(servers, client, serverId);
      const commands = buildCommands(deployCommandTemplate, {
        accessToken: maySeeSecrets(user) ? await tokens.read(user.id) : null,
        tags: client.tags,
        server,
        code: client.code,
      });
      return reply
        .header('cache-control', 'no-store')
        .send({ commands: commandsFor(user, commands) });
    },
  );
}

/**
 * The server a command is for: the one asked for, which must be one of the client's, or its
 * primary (the client form's server details, with no label when the client has no server).
 */
async function commandServer(
  servers: ServerRepository,
  client: Client,
  serverId: string | undefined,
): Promise<CommandContext['server']> {
  if (serverId === undefined) {
    const primary = (await servers.list({ clientId: client.id })).find((s) => s.primary);
    return { ...client.server, label: primary?.label ?? '' };
  }
  const server = await servers.get(serverId);
  if (!server || server.client.id !== client.id) {
    const message = 'Not a server of this client';
    throw new HttpError(400, `serverId: ${message}`, { fields: { serverId: message } });
  }
  return server;
}
