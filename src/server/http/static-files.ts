import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

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
    // The build writes .br and .gz copies (scripts/vite-precompress.ts): sent as accepted.
    preCompressed: true,
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

export function wantsSpaFallback(method: string, url: string, accept: string | undefined): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    !url.startsWith('/api/') &&
    !url.startsWith('/assets/') &&
    (accept ?? '').includes('text/html')
  );
}

/**
 * A route @fastify/static registered for one file of the web build (it keeps the file in the
 * route's config): public, like the page that loads before anyone signs in. Source maps are
 * not: they hold the client's whole source, comments included, which is for staff only.
 */
export function isWebAppFile(config: unknown): boolean {
  const file = (config as { file?: unknown } | undefined)?.file;
  return typeof file === 'string' && !/\.map(\.(br|gz))?$/.test(file);
}
