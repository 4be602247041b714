import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appCreateSchema,
  appIdSchema,
  appListQuerySchema,
  appListSchema,
  appSchema,
  appUpdateSchema,
  runListQuerySchema,
  runListSchema,
  runSchema,
  runStartSchema,
  type App,
} from '#shared/apps.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import type { Db } from '#server/db/database.ts';
import { HttpError } from '#server/http/http-error.ts';
import { refusalOf, type WriteResult } from '#server/http/write-result.ts';
import { noContent, refusals } from '#server/http/route-schemas.ts';
import { listPage } from '#server/http/pages.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import {
  canReachClient,
  requireReachableClientField,
  reachableClientIds,
} from '#server/auth/tag-scope.ts';
import type { RunManager } from '../runs/run-manager.ts';
import type { AppRepository } from './app-repository.ts';

const params = z.object({ id: appIdSchema });
const nameTaken = apiErrorSchema.describe('The client has an app with that name already.');
const staleOrNameTaken = apiErrorSchema.describe(
  'Changed by someone else since it was read (`code` STALE_VERSION), or the client has an app with that name already.',
);

function notFound(): HttpError {
  return new HttpError(404, 'No app with that id: it may have been removed');
}

const RECORD = { noun: 'app', notFound };

/**
 * Apps: every app of every client the person may see (or one client's), one app, its writes,
 * its runs and 'Deploy' (a new run). An app of a client outside the person's tags is answered
 * as one that does not exist.
 */
export function registerAppRoutes(
  app: FastifyInstance,
  deps: { db: Db; apps: AppRepository; runs: RunManager },
): void {
  const { apps, runs } = deps;
  const db = deps.db.kysely;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The app's id, once its client is known to be within the person's reach. */
  async function reachableId(request: FastifyRequest, id: string): Promise<string> {
    const clientId = await apps.clientOf(id);
    if (!clientId || !(await canReachClient(db, accessOf(requireUser(request)), clientId))) {
      throw notFound();
    }
    return id;
  }

  async function answer(result: WriteResult): Promise<App> {
    const refusal = refusalOf(result, RECORD);
    if (refusal) throw refusal;
    const found = result.status === 'done' ? await apps.get(result.id) : undefined;
    if (!found) throw notFound();
    return found;
  }

  api.get(
    '/api/apps',
    {
      schema: {
        summary: "Apps of every client, or one client's, with their last run; paged on request",
        tags: ['apps'],
        querystring: appListQuerySchema,
        response: { 200: appListSchema, ...refusals },
      },
    },
    async (request) => {
      const { clientId, serverId, state, q } = request.query;
      const [all, reachable] = await Promise.all([
        apps.list({
          ...(clientId === undefined ? {} : { clientId }),
          ...(serverId === undefined ? {} : { serverId }),
          ...(state === undefined ? {} : { state }),
          ...(q === undefined ? {} : { q }),
        }),
        reachableClientIds(db, accessOf(requireUser(request))),
      ]);
      const seen = reachable ? all.filter((a) => reachable.has(a.client.id)) : all;
      const { items, nextCursor } = listPage(seen, request.query, (a) => a.id);
      return { apps: items, nextCursor };
    },
  );

  api.get(
    '/api/apps/:id',
    {
      schema: {
        summary: 'One app, with its last run',
        tags: ['apps'],
        params,
        response: { 200: appSchema, ...refusals },
      },
    },
    async (request) => {
      const found = await apps.get(await reachableId(request, request.params.id));
      if (!found) throw notFound();
      return found;
    },
  );

  api.post(
    '/api/apps',
    {
      schema: {
        summary: "Add an app to a client, on one of that client's servers",
        tags: ['apps'],
        body: appCreateSchema,
        response: { 201: appSchema, ...refusals, 409: nameTaken },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const values = request.body;
      await requireReachableClientField(db, accessOf(user), values.clientId);
      const created = await answer(await apps.create(values, actorOf(user)));
      return reply.status(201).header('location', `/api/apps/${created.id}`).send(created);
    },
  );

  api.put(
    '/api/apps/:id',
    {
      schema: {
        summary: 'Edit an app; `version` is the one it was read at',
        tags: ['apps'],
        params,
        body: appUpdateSchema,
        response: { 200: appSchema, ...refusals, 409: staleOrNameTaken },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const { version, ...values } = request.body;
      return answer(await apps.update(id, values, version, actor));
    },
  );

  api.get(
    '/api/apps/:id/runs',
    {
      schema: {
        summary: "An app's runs, newest first (the last 50 are kept); paged on request",
        tags: ['apps'],
        params,
        querystring: runListQuerySchema,
        response: { 200: runListSchema, ...refusals },
      },
    },
    async (request) => {
      const id = await reachableId(request, request.params.id);
      const list = await apps.runs(id);
      // Keyed newest first: the start time, negated.
      const { items, nextCursor } = listPage(list, request.query, (r) => -Date.parse(r.startedAt));
      return { runs: items, nextCursor };
    },
  );

  api.post(
    '/api/apps/:id/runs',
    {
      schema: {
        summary: "Deploy: run the app's command on its server over SSH",
        description:
          'With `version`, the app must still be at that version, and with `host` and `directory` its server must have that host and the run that directory (409 otherwise): what the person confirmed is what runs.',
        tags: ['apps'],
        params,
        body: runStartSchema,
        response: {
          201: runSchema,
          ...refusals,
          409: apiErrorSchema.describe(
            'It cannot run now: a run is under way (naming who started it), the app or where it runs changed since what was given, or the app or its server is not ready (the reason).',
          ),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const id = await reachableId(request, request.params.id);
      const outcome = await runs.startRun(
        id,
        { ...actorOf(user), id: user.id },
        request.body ?? {},
      );
      if (outcome.status === 'not_found') throw notFound();
      if (outcome.status === 'refused') throw new HttpError(409, outcome.message);
      return reply.status(201).header('location', `/api/runs/${outcome.run.id}`).send(outcome.run);
    },
  );

  // Last: the tests that walk every route in order reach the others while the app is there.
  api.delete(
    '/api/apps/:id',
    {
      schema: {
        summary: 'Remove an app with its runs (refused while one runs)',
        tags: ['apps'],
        params,
        response: {
          204: noContent,
          ...refusals,
          409: apiErrorSchema.describe('A run of this app is running.'),
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const refusal = refusalOf(await apps.delete(id, actor), RECORD);
      if (refusal) throw refusal;
      return reply.status(204).send(null);
    },
  );
}
