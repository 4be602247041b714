/*
 * The JavaScript a page loads before it is drawn, from the Vite manifest of a build: the
 * closure of the static imports of the entry and of the page's lazy routes (Vite modulepreloads
 * every static import) and the scripts index.html names, each file gzip -9'd as the bench's
 * Chromium step does. Deterministic,
 * no browser, under a second: `npm run size` after `npm run build`, and in `npm test`.
 *
 *   node bench/bundle-size.ts [--dir dist/client] [--chunks]
 *
 * --chunks lists the dashboard's files, largest first. Exits 1 when a target is missed.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseArgs } from 'node:util';

interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The manifest keys each page starts from: the entry and the lazy routes it goes through. */
export const PAGES = {
  signIn: ['index.html', 'features/auth/sign-in-page.tsx'],
  dashboard: ['index.html', 'app/signed-in-layout.tsx', 'app/dashboard-route.tsx'],
} as const;

/** docs/performance.md's target: the dashboard's JavaScript at most 250 KB gzipped. */
export const DASHBOARD_BUDGET = 250 * 1024;

export interface PageSize {
  /** gzip -9 bytes of every .js file in the closure. */
  total: number;
  files: { file: string; name: string; gzip: number }[];
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

export function pageSize(dir: string, manifest: Manifest, roots: readonly string[]): PageSize {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  const scripts = new Map<string, string>();
  for (const key of seen) {
    const chunk = manifest[key]!;
    if (chunk.file.endsWith('.js')) scripts.set(chunk.file, chunk.name ?? chunk.file);
  }
  // What the page itself loads besides its entry: the public/ scripts, not in the manifest.
  if (seen.has('index.html')) {
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    for (const [, file] of html.matchAll(/<script\b[^>]*\ssrc="\/([^"]+\.js)"/g)) {
      if (!scripts.has(file!)) scripts.set(file!, file!);
    }
  }
  const files = [...scripts]
    .map(([file, name]) => ({
      file,
      name,
      gzip: zlib.gzipSync(fs.readFileSync(path.join(dir, file)), { level: 9 }).length,
    }))
    .sort((a, b) => b.gzip - a.gzip);
  return { total: files.reduce((sum, file) => sum + file.gzip, 0), files };
}

/** Both pages' sizes and the targets they miss (docs/performance.md). */
export function checkSizes(dir: string): {
  signIn: PageSize;
  dashboard: PageSize;
  problems: string[];
} {
  const manifest = readManifest(dir);
  const signIn = pageSize(dir, manifest, PAGES.signIn);
  const dashboard = pageSize(dir, manifest, PAGES.dashboard);
  const problems = [
    ...(dashboard.total > DASHBOARD_BUDGET
      ? [`The dashboard loads ${kb(dashboard.total)} of JavaScript, over ${kb(DASHBOARD_BUDGET)}.`]
      : []),
    ...(signIn.total >= dashboard.total
      ? ['The sign-in page loads at least as much JavaScript as the dashboard.']
      : []),
  ];
  return { signIn, dashboard, problems };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: 'dist/client' },
      chunks: { type: 'boolean', default: false },
    },
  });
  const { signIn, dashboard, problems } = checkSizes(path.resolve(values.dir));
  if (values.chunks) {
    for (const { name, gzip } of dashboard.files) console.log(`${kb(gzip).padStart(9)}  ${name}`);
  }
  console.log(`sign-in page JS, gzip: ${kb(signIn.total)}`);
  console.log(`dashboard JS, gzip:    ${kb(dashboard.total)} (target ≤ ${kb(DASHBOARD_BUDGET)})`);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exitCode = 1;
}
