import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's own lines for each request ("incoming request", "request completed"), at a level
 * of our choosing: `info` on a developer's machine, `debug` in production, where an operator's
 * default log would otherwise be two lines per request and hide what matters. Failed requests stay at `error`, as Fastify writes them.
 */
export class RequestLogLines extends LogController {
  readonly #level: 'info' | 'debug';

  constructor(level: 'info' | 'debug') {
    super();
    this.#level = level;
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log[this.#level]({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log[this.#level]({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
