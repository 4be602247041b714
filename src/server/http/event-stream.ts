import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/**
 * The answer to a HEAD of a server-sent event stream: the head alone. Node sends a HEAD
 * answer's head only when it ends, so a subscription would hold the request open for as long
 * as the stream lives.
 */
export function eventStreamHead(reply: FastifyReply): FastifyReply {
  return reply.header('content-type', EVENT_STREAM).send();
}

/**
 * Takes the response over from Fastify and opens a server-sent event stream on it: the
 * security headers already set on the reply, no caching or proxy buffering, and a 2 s retry
 * for the browser's own reconnection. The caller writes the events and ends it.
 */
export function startEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': EVENT_STREAM,
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  return res;
}
