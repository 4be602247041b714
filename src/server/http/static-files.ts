import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

const SOURCE_MAP = /\.map(\.(br|gz))?$/;

/**
 * Serves the built single-page app: hashed files under /assets/ are immutable for a year,
 * everything else is revalidated, and any other GET that wants HTML gets index.html so the
 * browser router can take over (history fallback).
 */
export async function registerStaticFiles(app: FastifyInstance, root: string): Promise<boolean> {
  if (!fs.existsSync(path.join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The build writes .br and .gz copies (scripts/vite-precompress.ts): sent as accepted, at
    // their file's own URL. A route of their own (one per file, as every file gets with
    // `wildcard: false`) would only send one with the wrong type, and half of the build's
    // routes were theirs, each taking start-up time and memory.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      // A source map is for signed-in staff only (isWebAppSourceMap): a shared cache, a proxy
      // or a CDN before the server, must not keep it for whoever asks next.
      const audience = SOURCE_MAP.test(filePath) ? 'private' : 'public';
      res.header('cache-control', hashed ? `${audience}, max-age=31536000, immutable` : 'no-cache');
    },
  });
  return true;
}

/** A path whose last part has an extension names a file: /favicon.ico, /robots.txt. */
const FILE_PATH = /\/[^/]*\.[a-z0-9]+$/i;

/**
 * Whether a request no route answered gets index.html. Every GET outside the API and the
 * hashed assets does: a browser's navigation (it asks for HTML) and `curl http://host/` alike
 * (it asks for anything). A path naming a file that is not there is a 404, not a page.
 */
export function wantsSpaFallback(method: string, url: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = url.split('?', 1)[0] ?? url;
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/')) return false;
  return (accept ?? '').includes('text/html') || !FILE_PATH.test(path);
}

/**
 * A route @fastify/static registered for one file of the web build (it keeps the file in the
 * route's config): public, like the page that loads before anyone signs in. Source maps are
 * not: they hold the client's whole source, comments included, which is for staff only.
 */
export function isWebAppFile(config: unknown): boolean {
  const file = webBuildFile(config);
  return file !== undefined && !SOURCE_MAP.test(file);
}

/** A source map of the web build: for anyone signed in (route-permissions.ts). */
export function isWebAppSourceMap(config: unknown): boolean {
  const file = webBuildFile(config);
  return file !== undefined && SOURCE_MAP.test(file);
}

function webBuildFile(config: unknown): string | undefined {
  const file = (config as { file?: unknown } | undefined)?.file;
  return typeof file === 'string' ? file : undefined;
}
