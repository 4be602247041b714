import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

type HeaderChange =
  { set: string; value: string | number | readonly string[] } | { remove: string };

/**
 * Helmet's security headers (CSP, HSTS, frame options…) on every answer. Helmet decides them;
 * with our options they are the same for every request (no nonces), so its middleware runs
 * once, here, against a response that records what it does, and each request gets that record
 * replayed. @fastify/helmet instead built the middleware anew per request (parsing the whole
 * policy: a twentieth of the CPU under load), and even built once, Helmet's chain of eleven
 * middlewares cost about 5% of a small request.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const changes = recordHeaderChanges(options);
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const change of changes) {
      if ('set' in change) res.setHeader(change.set, change.value);
      else res.removeHeader(change.remove);
    }
    done();
  });
}

/**
 * What Helmet's middleware does to a response, in order. A directive computed per request (a
 * function, as for nonces) cannot be recorded once: it is refused here rather than frozen.
 */
export function recordHeaderChanges(options: HelmetOptions): readonly HeaderChange[] {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (
    directives.some(
      (d) =>
        typeof d === 'function' || (Array.isArray(d) && d.some((v) => typeof v === 'function')),
    )
  ) {
    throw new Error('security headers: a directive computed per request cannot be recorded');
  }
  const changes: HeaderChange[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      changes.push({ set: name, value });
      return recorder;
    },
    removeHeader(name: string) {
      changes.push({ remove: name });
    },
  };
  let failure: unknown;
  helmet(options)(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (error?: unknown) => (failure = error),
  );
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return changes;
}
