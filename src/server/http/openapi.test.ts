import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Session } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { registerRouteSchemas } from './route-schemas.ts';
import { registerErrorHandling } from './error-handler.ts';
import { DOCS_PREFIX, OPENAPI_PATH } from './openapi-document.ts';
import { isWebAppFile, isWebAppSourceMap } from './static-files.ts';
import type { RegisteredRoute } from './route-registry.ts';

const t = serveThisFile({ staff: { alice: { name: 'Alice' } } });

interface Operation {
  security?: unknown[];
  responses?: Record<string, unknown>;
}
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

async function fetchDocument(): Promise<Document> {
  const answer = await t.staff.alice.json<Document>('GET', OPENAPI_PATH);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Better Auth's routes: one catch-all, described in the document path by path. */
const BETTER_AUTH = '/api/auth/*';

/**
 * The routes the document must describe: every registered one but HEAD (Fastify's twin of a
 * GET), the web app's files and the docs page's own (the page, its files, its copy of the
 * document).
 */
function documentedRoutes(): RegisteredRoute[] {
  return t.server.app.registeredRoutes.filter(
    (route) =>
      route.method !== 'HEAD' &&
      !isWebAppFile(route.config) &&
      !isWebAppSourceMap(route.config) &&
      route.url !== DOCS_PREFIX &&
      !route.url.startsWith(`${DOCS_PREFIX}/`),
  );
}

/** Fastify's `/api/clients/:id` as OpenAPI writes it: `/api/clients/{id}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every registered route with its method, path and security, and nothing else', async () => {
    const document = await fetchDocument();
    const described = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        described.add(`${method.toUpperCase()} ${path}`);
        expect(Array.isArray(operation.security), `${method} ${path}: security`).toBe(true);
      }
    }
    const registered = new Set(
      documentedRoutes().map((route) => `${route.method} ${openapiPath(route.url)}`),
    );
    // The catch-all is described by the Better Auth routes the web app and scripts use.
    registered.delete(`GET ${BETTER_AUTH}`);
    registered.delete(`POST ${BETTER_AUTH}`);
    const ofBetterAuth = (key: string) =>
      key.split(' ')[1]!.startsWith('/api/auth/') && !key.includes('/api/auth/callback/');
    expect([...registered].filter((key) => !described.has(key))).toEqual([]);
    expect([...described].filter((key) => !registered.has(key) && !ofBetterAuth(key))).toEqual([]);
    for (const key of ['POST /api/auth/sign-in/email', 'POST /api/auth/sign-out']) {
      expect(described).toContain(key);
    }
    expect(described).toContain('GET /api/auth/get-session');
    expect(document.components.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie' },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    // Signed-in routes take either; the public ones say they need neither.
    expect(document.paths['/api/servers']!.get!.security).toEqual([
      { session: [] },
      { bearer: [] },
    ]);
    expect(document.paths['/api/config']!.get!.security).toEqual([]);
    // The issue routes, with their own answers: a stale edit's 409 among them.
    expect(Object.keys(document.paths['/api/issues/{id}']!).sort()).toEqual(['get', 'put']);
    expect(document.paths['/api/issues/{id}']!.put!.responses).toHaveProperty('409');
    expect(document.paths['/api/issues/{id}/comments']!.post!.responses).toHaveProperty('201');
  });

  it('has a declared response schema for every route it describes from the app', () => {
    const missing = documentedRoutes()
      .filter((route) => route.url !== BETTER_AUTH && !route.url.startsWith('/api/auth/'))
      .filter((route) => {
        const schema = route.schema as { response?: Record<string, unknown> } | undefined;
        return schema?.response === undefined || Object.keys(schema.response).length === 0;
      })
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
  });
});

describe("Better Auth's sign-in, as the document describes it", () => {
  it('declares each refusal the route answers, in the shape it is answered', async () => {
    const document = await fetchDocument();
    const responses = document.paths['/api/auth/sign-in/email']!.post!.responses as Record<
      string,
      { content: { 'application/json': { schema: Record<string, unknown> } } }
    >;
    const declared = (status: number) => {
      const schema = responses[String(status)]?.content['application/json'].schema;
      expect(schema, `${status} is declared`).toBeDefined();
      return z.fromJSONSchema(schema as never);
    };
    const anyone = new Session(t.server);
    const refusals = [
      // A wrong password, an off-app callback, a body of the wrong types, text instead of JSON.
      [{ email: 'nobody@example.com', password: 'not the password' }, undefined],
      [{ email: 'nobody@example.com', password: 'x', callbackURL: 'https://elsewhere.test/' }],
      [{ email: 1, password: 'x' }],
      ['email=a', { 'content-type': 'text/plain' }],
    ] as const;
    for (const [body, headers] of refusals) {
      const answer = await anyone.request('POST', '/api/auth/sign-in/email', body, headers);
      const json: unknown = await answer.json();
      const result = declared(answer.status).safeParse(json);
      expect(result.success, `${answer.status} ${JSON.stringify(json)}`).toBe(true);
    }
  });
});

describe('answers checked against their schemas', () => {
  it('fails an answer that does not match (500) and drops keys the schema does not name', async () => {
    // A throwaway app with the same compilers and error handling as the real one.
    const app = Fastify();
    await registerRouteSchemas(app);
    registerErrorHandling(app, { spa: false });
    const api = app.withTypeProvider<ZodTypeProvider>();
    const answer = z.object({ name: z.string() });
    api.get('/off-schema', { schema: { response: { 200: answer } } }, async () => {
      // What a handler bug would send: the declared type says otherwise.
      return { name: 42 } as unknown as { name: string };
    });
    api.get('/extra-key', { schema: { response: { 200: answer } } }, async () => {
      return { name: 'Alice', secret: 'never sent' } as { name: string };
    });
    try {
      const off = await app.inject({ method: 'GET', url: '/off-schema' });
      expect(off.statusCode).toBe(500);
      expect(off.json()).toEqual({ error: 'Something went wrong on the server. Try again.' });
      const extra = await app.inject({ method: 'GET', url: '/extra-key' });
      expect(extra.statusCode).toBe(200);
      expect(extra.json()).toEqual({ name: 'Alice' });
    } finally {
      await app.close();
    }
  });

  it('refuses a request off its schema with the 400 that names the field', async () => {
    const answer = await t.staff.alice.json<{ error: string; fields: Record<string, string> }>(
      'POST',
      '/api/clients',
      { name: 7 },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^Invalid body: name: /);
    expect(Object.keys(answer.body.fields)).toEqual(['name']);
  });
});

describe('the docs page', () => {
  it('is for signed-in people only, as is the document', async () => {
    const anon = new Session(t.server);
    for (const path of [OPENAPI_PATH, DOCS_PREFIX, `${DOCS_PREFIX}/json`]) {
      const answer = await anon.json<{ error: string }>('GET', path);
      expect(answer.status, path).toBe(401);
      expect(answer.body.error).toBe('Sign in to continue');
    }
  });

  it('answers Swagger UI from its own files under a policy of its own', async () => {
    const page = await t.staff.alice.request('GET', DOCS_PREFIX);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>Clients Manager API</title>');
    // Nothing from another origin: every script and style is a path of this server.
    for (const [, src] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect(src, src).toMatch(/^\/api\/docs\/static\//);
    }
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('https:');
    const bundle = await t.staff.alice.request('GET', `${DOCS_PREFIX}/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    // The API's own answers keep the strict policy.
    const me = await t.staff.alice.request('GET', '/api/me');
    expect(me.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});
