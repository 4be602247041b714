import { eventStreamHead, startEventStream } from '#server/http/event-stream.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EventHub } from './event-hub.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { refusals } from '#server/http/route-schemas.ts';
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
 * Where to resume: the last event id seen, as the header EventSource sends on reconnecting or
 * as a query parameter. Its form is checked by the route, whose message names the header.
 */
const resumeFrom = {
  querystring: z.object({
    lastEventId: z.string().optional().describe('The last event id seen (sequence number)'),
  }),
  // Loose: the other headers (the session cookie among them) stay as they came.
  headers: z.looseObject({
    'last-event-id': z.string().optional().describe('The last event id seen (sequence number)'),
  }),
};

/** The stream: `id:`, `event:` (the event's kind) and `data:` (the event as JSON) per event. */
const eventStream = {
  description:
    'Server-Sent Events: each event of the log the person may see, as `id: <seq>`, `event: <kind>`, `data: <JSON>`; `stream.ready` once the replay is done.',
  content: { 'text/event-stream': { schema: z.string() } },
};

/**
 * Live streams one person may have open on an instance at once: one a tab of the app, with
 * room to spare. Each may hold up to 4 MB its reader has not taken yet (event-hub.ts), so
 * without a bound one account could make the server hold any amount of memory.
 */
export const STREAMS_PER_PERSON = 20;

export const TOO_MANY_STREAMS_MESSAGE = `Too many live streams open: at most ${STREAMS_PER_PERSON} a person. Close some of this app's tabs.`;

/**
 * GET /api/events: the event log as Server-Sent Events. Event ids are sequence numbers; the
 * browser's EventSource sends the last one back as Last-Event-ID when it reconnects.
 */
export function registerEventsRoute(app: FastifyInstance, hub: EventHub): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const openStreams = new Map<string, number>();
  api.get(
    '/api/events',
    {
      schema: {
        summary: 'The live stream of changes (Server-Sent Events)',
        tags: ['events'],
        ...resumeFrom,
        response: {
          200: eventStream,
          ...refusals,
          429: apiErrorSchema.describe(
            `The person has ${STREAMS_PER_PERSON} streams open already.`,
          ),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      if (request.method === 'HEAD') return eventStreamHead(reply);
      const lastEventId = parseLastEventId(
        request.headers['last-event-id'] ?? request.query.lastEventId,
      );

      const streams = openStreams.get(user.id) ?? 0;
      if (streams >= STREAMS_PER_PERSON) throw new HttpError(429, TOO_MANY_STREAMS_MESSAGE);
      openStreams.set(user.id, streams + 1);
      reply.raw.once('close', () => {
        const left = (openStreams.get(user.id) ?? 1) - 1;
        if (left > 0) openStreams.set(user.id, left);
        else openStreams.delete(user.id);
      });

      const res = startEventStream(reply);
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
            open: () => !closed,
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
    },
  );
}
