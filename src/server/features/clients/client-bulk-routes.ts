import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  applyTagChange,
  bulkIdsBodySchema,
  bulkResultSchema,
  bulkTagsSchema,
  type BulkResult,
} from '#shared/client-bulk.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { HttpError } from '#server/http/http-error.ts';
import { refusals } from '#server/http/route-schemas.ts';
import { accessOf, actorOf, requireUser } from '#server/auth/session-guard.ts';
import type { Access } from '#shared/people.ts';
import { clientTagsOf, idsOutOfReach, isLimited, ownTagProblem } from '#server/auth/tag-scope.ts';
import type { ClientRepository } from './client-repository.ts';
import type { BulkOutcome, TagChange } from './client-bulk-writes.ts';

/** Ids named in a refusal at most; the rest are counted. */
const IDS_NAMED = 10;

/** "a, b and 3 more": which clients, without a message the size of the request. */
export function nameIds(ids: readonly string[]): string {
  const named = ids.slice(0, IDS_NAMED).join(', ');
  return ids.length > IDS_NAMED ? `${named} and ${ids.length - IDS_NAMED} more` : named;
}

/** How many of how many, e.g. "2 of the 5 clients". */
function countOf(part: number, total: number): string {
  return `${part} of the ${total} ${total === 1 ? 'client' : 'clients'}`;
}

/** The answer for a bulk write, or the refusal that says why nothing was written. */
export function bulkAnswer(outcome: BulkOutcome, total: number, nothing: string): BulkResult {
  switch (outcome.status) {
    case 'done':
      return { changed: outcome.changed };
    case 'not_found':
      throw new HttpError(
        404,
        `${countOf(outcome.missing.length, total)} were not found (deleted meanwhile?): ${nameIds(outcome.missing)}. ${nothing}`,
      );
    case 'too_many_tags': {
      const message = `${countOf(outcome.names.length, total)} would have more than 50 tags: ${nameIds(outcome.names)}`;
      throw new HttpError(400, `Invalid body: add: ${message}. ${nothing}`, {
        fields: { add: message },
      });
    }
    case 'not_deleted':
      throw new HttpError(
        409,
        `${countOf(outcome.ids.length, total)} are not deleted (restored already?): ${nameIds(outcome.ids)}. ${nothing}`,
      );
  }
}

/**
 * Writes to many clients at once, each all or nothing in one transaction, with one event per
 * client written. POST like every other write, so the CSRF check refuses them cross-site.
 */
export function registerClientBulkRoutes(
  app: FastifyInstance,
  deps: { clients: ClientRepository },
): void {
  const { clients } = deps;
  const db = app.parts.db.kysely;

  /**
   * Refuses, before anything is written, a request naming clients outside the person's tags
   * (as not found, the answer for ids no client has), or a tag removal that would take all of
   * their tags off a client (they would lose it).
   */
  async function checkReach(
    access: Access,
    ids: readonly string[],
    nothing: string,
    change?: TagChange,
  ): Promise<void> {
    if (!isLimited(access)) return;
    const missing = await idsOutOfReach(db, access, ids);
    if (missing.length > 0) bulkAnswer({ status: 'not_found', missing }, ids.length, nothing);
    if (change === undefined || !('remove' in change)) return;
    const tags = await clientTagsOf(db, ids);
    const lost = ids.filter(
      (id) => ownTagProblem(access, applyTagChange(tags.get(id) ?? [], change)) !== undefined,
    );
    if (lost.length > 0) {
      const message = `${countOf(lost.length, ids.length)} would keep none of your tags (${access.tags!.join(', ')}): ${nameIds(lost)}`;
      throw new HttpError(400, `Invalid body: remove: ${message}. ${nothing}`, {
        fields: { remove: message },
      });
    }
  }

  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['clients'];

  api.post(
    '/api/clients/bulk/tags',
    {
      schema: {
        summary: 'Add tags to, or remove tags from, many clients at once',
        tags,
        body: bulkTagsSchema,
        response: { 200: bulkResultSchema, ...refusals },
      },
    },
    async (request): Promise<BulkResult> => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const { ids, add, remove } = request.body;
      const change = add ? { add } : { remove: remove ?? [] };
      await checkReach(accessOf(user), ids, 'No tags were changed.', change);
      const outcome = await clients.bulkTags(ids, change, actor);
      return bulkAnswer(outcome, ids.length, 'No tags were changed.');
    },
  );

  api.post(
    '/api/clients/bulk/delete',
    {
      schema: {
        summary: 'Delete many clients at once (all or none)',
        tags,
        body: bulkIdsBodySchema,
        response: { 200: bulkResultSchema, ...refusals },
      },
    },
    async (request): Promise<BulkResult> => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const { ids } = request.body;
      await checkReach(accessOf(user), ids, 'Nothing was deleted.');
      const outcome = await clients.bulkDelete(ids, actor);
      return bulkAnswer(outcome, ids.length, 'Nothing was deleted.');
    },
  );

  // The one Undo of a bulk delete: the same ids, versions and histories.
  api.post(
    '/api/clients/bulk/restore',
    {
      schema: {
        summary: 'Restore many deleted clients at once (all or none)',
        tags,
        body: bulkIdsBodySchema,
        response: {
          200: bulkResultSchema,
          ...refusals,
          409: apiErrorSchema.describe('Some of them are not deleted.'),
        },
      },
    },
    async (request): Promise<BulkResult> => {
      const user = requireUser(request);
      const actor = actorOf(user);
      const { ids } = request.body;
      const access = accessOf(user);
      await checkReach(access, ids, 'Nothing was restored.');
      const outcome = await clients.bulkRestore(ids, actor, access);
      return bulkAnswer(outcome, ids.length, 'Nothing was restored.');
    },
  );
}
