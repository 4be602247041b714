import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assigneeListSchema,
  assigneesQuerySchema,
  issueCommentCreateSchema,
  issueCommentListSchema,
  issueCommentSchema,
  issueCreateSchema,
  issueIdSchema,
  issueListQuerySchema,
  issueListSchema,
  issueSchema,
  issueUpdateSchema,
  type Issue,
} from '#shared/issues.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { HttpError } from '#server/http/http-error.ts';
import { refusalOf, type WriteResult } from '#server/http/write-result.ts';
import { refusals, staleVersionAnswer } from '#server/http/route-schemas.ts';
import { listPage } from '#server/http/pages.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import {
  canReachClient,
  requireReachableClientField,
  isLimited,
  reachableClientIds,
} from '#server/auth/tag-scope.ts';
import type { IssueRepository } from './issue-repository.ts';
import type { IssueWrites } from './issue-writes.ts';

const params = z.object({ id: issueIdSchema });

function notFound(): HttpError {
  return new HttpError(404, 'No issue with that id: it may have been removed with its client');
}

const RECORD = { noun: 'issue', notFound };

/**
 * Issues: notes and problems of clients (and of their servers and apps), opened by people or
 * by the system (server checks, runs), across every client the person may see or one client's.
 * Staff read them; editors and admins open, edit, resolve, reopen and comment (the route
 * permissions keep viewers to reading). An issue of a client outside the person's tags is
 * answered as one that does not exist.
 */
export function registerIssueRoutes(
  app: FastifyInstance,
  deps: { issues: IssueRepository; writes: IssueWrites },
): void {
  const { issues, writes } = deps;
  const db = app.parts.db.kysely;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The issue's id from the route, once its client is known to be within the person's reach. */
  async function reachableId(request: FastifyRequest, id: string): Promise<string> {
    const access = accessOf(requireUser(request));
    const clientId = await issues.clientOf(id);
    if (clientId === undefined) throw notFound();
    if (isLimited(access) && !(await canReachClient(db, access, clientId))) throw notFound();
    return id;
  }

  /** The issue as a write left it, or the write's refusal. */
  async function answer(result: WriteResult, id?: string): Promise<Issue> {
    const refusal = refusalOf(result, RECORD);
    if (refusal) throw refusal;
    const issue = result.status === 'done' ? await issues.get(id ?? result.id) : undefined;
    if (!issue) throw notFound();
    return issue;
  }

  api.get(
    '/api/issues',
    {
      schema: {
        summary:
          'Issues of every client or filtered, newest first (open ones unless `state` says otherwise); paged with `limit` and `cursor`',
        tags: ['issues'],
        querystring: issueListQuerySchema,
        response: { 200: issueListSchema, ...refusals },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { assigneeId, cursor, limit, ...filter } = request.query;
      const found = await issues.list({
        ...filter,
        ...(assigneeId === undefined
          ? {}
          : { assigneeId: assigneeId === 'me' ? user.id : assigneeId }),
        reachable: await reachableClientIds(db, accessOf(user)),
      });
      const page = listPage(found, { cursor, limit }, (issue) => issue.id);
      return { issues: page.items, nextCursor: page.nextCursor };
    },
  );

  api.get(
    '/api/issues/assignees',
    {
      schema: {
        summary:
          'The people an issue can be given to: every account not disabled, or with clientId those whose tags reach that client',
        tags: ['issues'],
        querystring: assigneesQuerySchema,
        response: { 200: assigneeListSchema, ...refusals },
      },
    },
    async (request) => {
      const { clientId } = request.query;
      if (clientId !== undefined) {
        await requireReachableClientField(db, accessOf(requireUser(request)), clientId);
      }
      return { people: await issues.assignees(clientId) };
    },
  );

  api.get(
    '/api/issues/:id',
    {
      schema: {
        summary: 'One issue',
        tags: ['issues'],
        params,
        response: { 200: issueSchema, ...refusals },
      },
    },
    async (request) => {
      const issue = await issues.get(await reachableId(request, request.params.id));
      if (!issue) throw notFound();
      return issue;
    },
  );

  api.post(
    '/api/issues',
    {
      schema: {
        summary: 'Open an issue of a client, optionally about one of its servers or apps',
        tags: ['issues'],
        body: issueCreateSchema,
        response: { 201: issueSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const values = request.body;
      await requireReachableClientField(db, accessOf(user), values.clientId);
      const issue = await answer(await writes.create(values, actorOf(user)));
      return reply.status(201).header('location', `/api/issues/${issue.id}`).send(issue);
    },
  );

  api.put(
    '/api/issues/:id',
    {
      schema: {
        summary: 'Edit an issue; `version` is the one it was read at',
        tags: ['issues'],
        params,
        body: issueUpdateSchema,
        response: { 200: issueSchema, ...refusals, 409: staleVersionAnswer },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const { version, ...values } = request.body;
      return answer(await writes.update(id, values, version, actor));
    },
  );

  api.post(
    '/api/issues/:id/resolve',
    {
      schema: {
        summary: 'Resolve an issue (one resolved already is answered as it is)',
        tags: ['issues'],
        params,
        response: { 200: issueSchema, ...refusals },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      return answer(await writes.resolve(await reachableId(request, request.params.id), actor));
    },
  );

  api.post(
    '/api/issues/:id/reopen',
    {
      schema: {
        summary:
          'Open a resolved issue again (an open one is answered as it is; 409 while a newer issue about the same problem is open)',
        tags: ['issues'],
        params,
        response: {
          200: issueSchema,
          ...refusals,
          409: apiErrorSchema.describe('A newer issue about the same problem is open.'),
        },
      },
    },
    async (request) => {
      const actor = actorOf(requireUser(request));
      return answer(await writes.reopen(await reachableId(request, request.params.id), actor));
    },
  );

  api.get(
    '/api/issues/:id/comments',
    {
      schema: {
        summary: "An issue's comments, oldest first",
        tags: ['issues'],
        params,
        response: { 200: issueCommentListSchema, ...refusals },
      },
    },
    async (request) => ({
      comments: await issues.comments(await reachableId(request, request.params.id)),
    }),
  );

  api.post(
    '/api/issues/:id/comments',
    {
      schema: {
        summary: 'Comment on an issue',
        tags: ['issues'],
        params,
        body: issueCommentCreateSchema,
        response: { 201: issueCommentSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = actorOf(requireUser(request));
      const id = await reachableId(request, request.params.id);
      const result = await writes.comment(id, request.body.text, actor);
      const refusal = refusalOf(result, RECORD);
      if (refusal) throw refusal;
      const comment = (await issues.comments(id)).find(
        (c) => result.status === 'done' && c.id === result.id,
      );
      if (!comment) throw notFound();
      return reply.status(201).send(comment);
    },
  );
}
