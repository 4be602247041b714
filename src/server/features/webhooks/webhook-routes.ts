import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  deliveryPageQuerySchema,
  webhookInputSchema,
  webhookPatchSchema,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookList,
} from '#shared/webhooks.ts';
import { HttpError, parseInput } from '#server/http/http-error.ts';
import { actorOf, requireUser } from '#server/auth/session-guard.ts';
import { AddressRefused, hostOf, resolveAllowed } from '#server/realtime/webhook-address.ts';
import type { WebhookRepository } from './webhook-repository.ts';

/** Ids of endpoints and deliveries (newRecordId): base64url. Anything else names none. */
const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be an id');

function paramOf(params: unknown, name: 'id' | 'deliveryId'): string {
  return parseInput(idSchema, (params as Record<string, unknown>)[name], name);
}

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

  app.get('/api/webhooks', async (): Promise<WebhookList> => ({ webhooks: await webhooks.list() }));

  app.post('/api/webhooks', async (request, reply): Promise<WebhookCreated> => {
    const input = parseInput(webhookInputSchema, request.body);
    await checkUrl(input.url, allowPrivate);
    const created = await webhooks.create(input, actorOf(requireUser(request)));
    // It carries the secret: no cache keeps it.
    void reply.status(201).header('cache-control', 'no-store');
    return created;
  });

  app.patch('/api/webhooks/:id', async (request): Promise<Webhook> => {
    const id = paramOf(request.params, 'id');
    const patch = parseInput(webhookPatchSchema, request.body);
    if (patch.url !== undefined) await checkUrl(patch.url, allowPrivate);
    const updated = await webhooks.update(id, patch, actorOf(requireUser(request)));
    if (!updated) throw notFound();
    return updated;
  });

  app.delete('/api/webhooks/:id', async (request, reply) => {
    const id = paramOf(request.params, 'id');
    if (!(await webhooks.delete(id, actorOf(requireUser(request))))) throw notFound();
    return reply.status(204).send();
  });

  app.get('/api/webhooks/:id/deliveries', async (request): Promise<WebhookDeliveryPage> => {
    const id = paramOf(request.params, 'id');
    const query = parseInput(deliveryPageQuerySchema, request.query, 'query');
    if (!(await webhooks.exists(id))) throw notFound();
    const page = await webhooks.deliveries(id, query);
    if (!page) {
      const message = 'Not a cursor this list gave';
      throw new HttpError(400, `Invalid query: cursor: ${message}`, {
        fields: { cursor: message },
      });
    }
    return page;
  });

  app.post(
    '/api/webhooks/:id/deliveries/:deliveryId/resend',
    async (request, reply): Promise<WebhookDelivery> => {
      const id = paramOf(request.params, 'id');
      const deliveryId = paramOf(request.params, 'deliveryId');
      const queued = await webhooks.resend(id, deliveryId);
      if (queued === undefined) {
        throw new HttpError(404, 'No delivery with that id for this webhook');
      }
      if (queued === 'pending') {
        throw new HttpError(409, 'This delivery is still waiting to be sent: it needs no resend');
      }
      void reply.status(202);
      return queued;
    },
  );

  app.post('/api/webhooks/:id/test', async (request, reply): Promise<WebhookDelivery> => {
    const id = paramOf(request.params, 'id');
    const queued = await webhooks.test(id);
    if (queued === undefined) throw notFound();
    if (queued === null) {
      throw new HttpError(409, 'No event of the kinds this endpoint wants yet');
    }
    void reply.status(202);
    return queued;
  });
}
