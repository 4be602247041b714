import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

interface HeaderChange {
  set: string;
  value: string | number | readonly string[];
}

/** What the web app's pages may load and do. */
function pageOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into a <style> element at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    hsts: https,
    // The same as frame-ancestors 'none', for browsers that read only this header.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The API's answers (JSON, the live stream) are never pages that load or run anything, so the
 * headers that govern what a page loads, where it navigates or which process it shares do
 * nothing for them; what does is kept, as the OWASP REST Security Cheat Sheet lists it: no
 * sniffing into another type, no framing, no reading from another origin, HSTS. Their policy is
 * the strictest there is (nothing may load, nothing may frame), should a browser show one.
 */
function apiOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    hsts: https,
    frameguard: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    dnsPrefetchControl: false,
    ieNoOpen: false,
    permittedCrossDomainPolicies: false,
    xssFilter: false,
  };
}

/**
 * Helmet's security headers on every answer: the pages' set, or for /api/ the API's. Helmet
 * decides them; with these options they are the same for every request (no nonces), so its
 * middleware runs once, here, against a response that records what it does, and each request
 * gets that record as Fastify reply headers. @fastify/helmet instead built the middleware anew
 * per request (parsing the whole policy: a twentieth of the CPU under load); even built once,
 * Helmet's chain of eleven middlewares cost about 5% of a small request; and Node checks each
 * header of each answer, so the API's five instead of the pages' eleven (and a policy of 40
 * characters instead of 300) are a tenth less work for a small API answer.
 *
 * A route that hijacks its reply writes these itself (`reply.getHeaders()`: the live stream).
 * By the raw URL: a path the router decodes to /api/ (`/%61pi/…`) gets the pages' set, the
 * larger one.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const page = securityHeaders(recordHeaderChanges(pageOptions(options.https)));
  const api = securityHeaders(recordHeaderChanges(apiOptions(options.https)));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? api : page);
    done();
  });
}

/** The recorded headers as one set, by lower-case name, as Fastify's reply keeps them. */
function securityHeaders(changes: readonly HeaderChange[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const { set, value } of changes) {
    headers[set.toLowerCase()] =
      typeof value === 'number' ? String(value) : (value as string | string[]);
  }
  return headers;
}

/**
 * The headers Helmet's middleware sets on a response, in order. A directive computed per request (a
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
    // Helmet removes X-Powered-By: at the start of a request there is none (Fastify never sets it).
    removeHeader() {},
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
