import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSizes, pageSize, type Manifest } from './bundle-size.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A build folder with `files` (name → text) and `manifest`. */
function build(files: Record<string, string>, manifest: Manifest): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bundle-size-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const gzip = (text: string) => zlib.gzipSync(text, { level: 9 }).length;

describe('pageSize', () => {
  it("sums each JS file of the static-import closure once and the page's own scripts, not dynamic imports or CSS", () => {
    const files = {
      'assets/index.js': 'console.log("entry");'.repeat(20),
      'assets/shared.js': 'export const shared = 1;',
      'assets/route.js': 'export const route = "route";',
      'assets/lazy.js': 'export const lazy = "only on use";'.repeat(50),
      'assets/route.css': 'body { color: red }',
      'public.js': 'window.setting = true;',
      'index.html':
        '<script src="/public.js" defer></script><script type="module" src="/assets/index.js"></script>',
    };
    const dir = build(files, {
      'index.html': { file: 'assets/index.js', imports: ['_shared.js'] },
      '_shared.js': { file: 'assets/shared.js', name: 'shared' },
      'route.tsx': {
        file: 'assets/route.js',
        name: 'route',
        imports: ['_shared.js', '_route.css'],
        dynamicImports: ['lazy.tsx'],
      } as Manifest[string],
      'lazy.tsx': { file: 'assets/lazy.js', name: 'lazy' },
      '_route.css': { file: 'assets/route.css' },
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8'));
    const size = pageSize(dir, manifest, ['index.html', 'route.tsx']);
    expect(size.files.map((f) => f.file).sort()).toEqual([
      'assets/index.js',
      'assets/route.js',
      'assets/shared.js',
      'public.js',
    ]);
    expect(size.total).toBe(
      gzip(files['assets/index.js']) +
        gzip(files['assets/shared.js']) +
        gzip(files['assets/route.js']) +
        gzip(files['public.js']),
    );
  });

  it('names a root the build does not have', () => {
    const dir = build({}, {});
    expect(() => pageSize(dir, {}, ['app/gone.tsx'])).toThrow('app/gone.tsx');
  });
});

describe('checkSizes', () => {
  const pages = (signIn: string, dashboard: string) =>
    build(
      {
        'index.html': '<script type="module" src="/assets/index.js"></script>',
        'assets/index.js': 'export {};',
        'assets/sign-in.js': signIn,
        'assets/layout.js': 'export {};',
        'assets/dashboard.js': dashboard,
      },
      {
        'index.html': { file: 'assets/index.js' },
        'features/auth/sign-in-page.tsx': { file: 'assets/sign-in.js' },
        'app/signed-in-layout.tsx': { file: 'assets/layout.js' },
        'app/dashboard-route.tsx': { file: 'assets/dashboard.js' },
      },
    );
  // Random bytes in base64 shrink to about three quarters under gzip, no further.
  const noise = (bytes: number) => crypto.randomBytes(bytes).toString('base64');

  it('passes a dashboard within its budget that loads more than the sign-in page', () => {
    expect(checkSizes(pages('export {};', noise(20_000))).problems).toEqual([]);
  });

  it('reports a dashboard over 250 KB and a sign-in page as heavy as the dashboard', () => {
    const { problems } = checkSizes(pages(noise(400_000), noise(300_000)));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^The dashboard loads .* KB of JavaScript, over 250.0 KB\.$/);
    expect(problems[1]).toBe(
      'The sign-in page loads at least as much JavaScript as the dashboard.',
    );
  });
});
