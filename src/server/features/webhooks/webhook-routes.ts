import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deliveryPageQuerySchema,
  webhookCreatedSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookInputSchema,
  webhookListSchema,
  webhookPatchSchema,
  webhookSchema,
} from '#shared/webhooks.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { HttpError } from '#server/http/http-error.ts';
import { noContent, refusals } from '#server/http/route-schemas.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import { AddressRefused, hostOf, resolveAllowed } from '#server/realtime/webhook-address.ts';
import type { WebhookRepository } from './webhook-repository.ts';
import { pageQuerySchema } from '#shared/pages.ts';
import { listPage } from '#server/http/pages.ts';

/** Ids of endpoints and deliveries (newRecordId): base64url. Anything else names none. */
const recordId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be an id');
const params = z.object({ id: recordId });
const deliveryParams = z.object({ id: recordId, deliveryId: recordId });

function notFound(): HttpError {
  return new HttpError(404, 'No webhook with that id: it may have been deleted');
}

/** How long a save waits for the URL's host name to resolve before it lets it be. */
const SAVE_LOOKUP_MS = 5_000;

/**
 * Refuses, on save, a URL whose host resolves to a private, loopback or link-local address
 * (unless WEBHOOK_ALLOW_PRIVATE=true). A name that does not resolve now is let through: every
 * delivery resolves and checks it again, and says so when it fails.
 */
async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(new URL(url));
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SAVE_LOOKUP_MS);
  });
  try {
    await Promise.race([resolveAllowed(host, false), gaveUp]);
  } catch (error) {
    if (error instanceof AddressRefused) {
      throw new HttpError(400, `Invalid body: url: ${error.message}`, {
        fields: { url: error.message },
      });
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The administrators' webhook routes (route-permissions.ts: all `admin`). */
export function registerWebhookRoutes(
  app: FastifyInstance,
  deps: { webhooks: WebhookRepository; allowPrivate: boolean },
): void {
  const { webhooks, allowPrivate } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];

  api.get(
    '/api/webhooks',
    {
      schema: {
        summary: 'Webhook endpoints, with their latest delivery (never a secret)',
        tags,
        querystring: pageQuerySchema,
        response: { 200: webhookListSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const { items, nextCursor } = listPage(await webhooks.list(), request.query, (w) => w.id);
      // Each URL is shown whole, for editing, and a chat service's URL is itself a credential.
      reply.header('cache-control', 'no-store');
      return { webhooks: items, nextCursor };
    },
  );

  api.post(
    '/api/webhooks',
    {
      schema: {
        summary: 'Add an endpoint; the answer shows its signing secret, this once',
        tags,
        body: webhookInputSchema,
        response: { 201: webhookCreatedSchema, ...refusals },
      },
    },
    async (request, reply) => {
      await checkUrl(request.body.url, allowPrivate);
      const created = await webhooks.create(request.body, actorOf(requireUser(request)));
      // It carries the secret: no cache keeps it.
      return reply.status(201).header('cache-control', 'no-store').send(created);
    },
  );

  api.patch(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Edit an endpoint: what is left out stays; a new secret is never echoed',
        tags,
        params,
        body: webhookPatchSchema,
        response: { 200: webhookSchema, ...refusals },
      },
    },
    async (request) => {
      if (request.body.url !== undefined) await checkUrl(request.body.url, allowPrivate);
      const updated = await webhooks.update(
        request.params.id,
        request.body,
        actorOf(requireUser(request)),
      );
      if (!updated) throw notFound();
      return updated;
    },
  );

  api.delete(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Delete an endpoint and its deliveries',
        tags,
        params,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      if (!(await webhooks.delete(request.params.id, actorOf(requireUser(request))))) {
        throw notFound();
      }
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        summary: "An endpoint's deliveries, newest first, a page at a time",
        tags,
        params,
        querystring: deliveryPageQuerySchema,
        response: { 200: webhookDeliveryPageSchema, ...refusals },
      },
    },
    async (request) => {
      if (!(await webhooks.exists(request.params.id))) throw notFound();
      const page = await webhooks.deliveries(request.params.id, request.query);
      if (!page) {
        const message = 'Not a cursor this list gave';
        throw new HttpError(400, `Invalid query: cursor: ${message}`, {
          fields: { cursor: message },
        });
      }
      return page;
    },
  );

  api.post(
    '/api/webhooks/:id/deliveries/:deliveryId/resend',
    {
      schema: {
        summary: 'Send a delivered or failed delivery again, after what is pending',
        tags,
        params: deliveryParams,
        response: {
          202: webhookDeliverySchema,
          ...refusals,
          409: apiErrorSchema.describe('The delivery is still waiting to be sent.'),
        },
      },
    },
    async (request, reply) => {
      const queued = await webhooks.resend(request.params.id, request.params.deliveryId);
      if (queued === undefined) {
        throw new HttpError(404, 'No delivery with that id for this webhook');
      }
      if (queued === 'pending') {
        throw new HttpError(409, 'This delivery is still waiting to be sent: it needs no resend');
      }
      return reply.status(202).send(queued);
    },
  );

  api.post(
    '/api/webhooks/:id/test',
    {
      schema: {
        summary: 'Queue a delivery of the newest event of a kind the endpoint wants',
        tags,
        params,
        response: {
          202: webhookDeliverySchema,
          ...refusals,
          409: apiErrorSchema.describe('The log holds no event of the kinds it wants yet.'),
        },
      },
    },
    async (request, reply) => {
      const queued = await webhooks.test(request.params.id);
      if (queued === undefined) throw notFound();
      if (queued === null) {
        throw new HttpError(409, 'No event of the kinds this endpoint wants yet');
      }
      return reply.status(202).send(queued);
    },
  );
}
