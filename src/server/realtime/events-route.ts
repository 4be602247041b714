import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { EventHub } from './event-hub.ts';
import { accessOf, requireUser } from '#server/auth/session-guard.ts';
import { HttpError } from '#server/http/http-error.ts';

function parseLastEventId(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  if (!/^\d{1,15}$/.test(text))
    throw new HttpError(400, 'Invalid Last-Event-ID: must be a sequence number');
  return Number(text);
}

/**
 * GET /api/events: the event log as Server-Sent Events. Event ids are sequence numbers; the
 * browser's EventSource sends the last one back as Last-Event-ID when it reconnects.
 */
export function registerEventsRoute(app: FastifyInstance, hub: EventHub): void {
  app.get('/api/events', async (request, reply) => {
    const user = requireUser(request);
    // The head alone: Node sends a HEAD answer's head only when it ends, so a subscription
    // would hold the request open for as long as the stream lives.
    if (request.method === 'HEAD') {
      return reply.header('content-type', 'text/event-stream; charset=utf-8').send();
    }
    const query = request.query as { lastEventId?: string };
    const lastEventId = parseLastEventId(request.headers['last-event-id'] ?? query.lastEventId);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      // The security headers, set on the reply before it was hijacked.
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    let closed = false;
    const subscription: { unsubscribe?: () => void } = {};
    request.raw.on('close', () => {
      closed = true;
      subscription.unsubscribe?.();
    });
    let unsubscribe: () => void;
    try {
      unsubscribe = await hub.subscribe(
        {
          userId: user.id,
          sessionId: request.sessionId ?? '',
          access: accessOf(user),
          write: (chunk) => {
            if (!closed) res.write(chunk);
          },
          pending: () => res.writableLength,
          end: () => {
            closed = true;
            res.end();
          },
        },
        lastEventId,
      );
    } catch (error) {
      // The replay could not be read (the database went away after the session check). The
      // response has started, so end it: the browser reconnects with its Last-Event-ID.
      request.log.warn({ err: error }, 'live stream could not start');
      res.end();
      return;
    }
    if (closed) unsubscribe();
    else subscription.unsubscribe = unsubscribe;
  });
}
