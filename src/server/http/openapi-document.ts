import type { FastifyInstance } from 'fastify';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_DOCS_CSS, API_DOCS_JS } from './api-docs-theme.ts';
import { betterAuthPaths } from './better-auth-paths.ts';

/**
 * How a request is signed in: the browser's session cookie (Better Auth's, `cm.` prefixed;
 * `__Secure-cm.session_token` when PUBLIC_URL is https), or a personal API token.
 */
export const securitySchemes = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'cm.session_token',
    description:
      'The session cookie a browser gets at sign-in (`__Secure-cm.session_token` when the server is reached over HTTPS). Writes from a browser must come from the app’s own origin.',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal API token (Settings): `Authorization: Bearer <token>`. It never exceeds its owner’s role and tags; a token request needs no CSRF check.',
  },
} as const;

/** Either one: every route but the public ones. */
export const SIGNED_IN: { [scheme: string]: string[] }[] = [{ session: [] }, { bearer: [] }];

/** The routes that answer without anyone signed in declare this. */
export const PUBLIC_ACCESS: { [scheme: string]: string[] }[] = [];

/** What @fastify/swagger builds the document from, besides the routes' own schemas. */
export const openapiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Clients Manager API',
      // The API's own version: it changes when a route changes shape, not with each release.
      version: '1',
      description:
        'Every route a signed-in person or an API token may call. Errors answer `{ error, fields? }`; `fields` names the field each message is about. Every answer is checked against the schema here before it is sent.',
    },
    components: { securitySchemes },
    security: SIGNED_IN,
    // Better Auth's routes, described by hand (its catch-all route has no schema).
    paths: betterAuthPaths,
  },
  /**
   * The routes' zod schemas as JSON Schema, and each operation's security named on it (a
   * route that declares none is a signed-in one), so a reader of one operation sees how to
   * call it.
   */
  transform: (document) => {
    const transformed = jsonSchemaTransform(document);
    const { schema } = transformed;
    if (!schema || (schema as { hide?: boolean }).hide) return transformed;
    return { ...transformed, schema: { ...schema, security: schema.security ?? SIGNED_IN } };
  },
};

/** The files api-docs-theme.ts adds to Swagger UI's, under its `static/theme/`. */
export const API_DOCS_THEME = { css: 'accessible.css', js: 'accessible.js' } as const;

/** Where the document is served, and where people read it. */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/**
 * The document and the page are for anyone signed in: the routes @fastify/swagger-ui
 * registers (the page, with and without its slash, its files, its copy of the document).
 */
export const API_DOCS_PERMISSIONS = {
  [`GET ${OPENAPI_PATH}`]: 'self',
  [`GET ${DOCS_PREFIX}`]: 'self',
  [`GET ${DOCS_PREFIX}/`]: 'self',
  [`GET ${DOCS_PREFIX}/json`]: 'self',
  [`GET ${DOCS_PREFIX}/yaml`]: 'self',
  [`GET ${DOCS_PREFIX}/static/index.html`]: 'self',
  [`GET ${DOCS_PREFIX}/static/swagger-initializer.js`]: 'self',
  [`GET ${DOCS_PREFIX}/static/*`]: 'self',
  [`GET ${DOCS_PREFIX}/static/theme/${API_DOCS_THEME.css}`]: 'self',
  [`GET ${DOCS_PREFIX}/static/theme/${API_DOCS_THEME.js}`]: 'self',
} as const;

/**
 * The page's own policy, in place of the API's `default-src 'none'`: Swagger UI's scripts and
 * styles are files of its own package served from here ('self'); its logo is a data: image, and
 * it sets styles inline as the web app's pages may. Nothing from another origin.
 */
const DOCS_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
};

/**
 * `GET /api/openapi.json`, the document, and `/api/docs`, Swagger UI showing it, both for
 * anyone signed in (route-permissions.ts). The UI's own routes (its files, the copy of the
 * document it loads from `/api/docs/json`) are hidden from the document.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: 'This document (OpenAPI 3.1)',
        tags: ['docs'],
        response: { 200: z.looseObject({ openapi: z.string() }) },
      },
    },
    async () => app.swagger(),
  );
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: DOCS_CSP,
    // No call to swagger.io's validator: the document is checked by this project's tests.
    validatorUrl: false,
    uiConfig: { deepLinking: false, tryItOutEnabled: false, layout: 'BaseLayout' },
    theme: {
      title: 'Clients Manager API',
      css: [{ filename: API_DOCS_THEME.css, content: API_DOCS_CSS }],
      js: [{ filename: API_DOCS_THEME.js, content: API_DOCS_JS }],
    },
  });
}
