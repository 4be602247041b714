import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../scripts/vite-precompress.ts';
import { signUpVerified, startTestServer } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

describe('static files of the web build', () => {
  let webDir: string;
  const script = `console.log(${JSON.stringify('hello '.repeat(500))});\n`;

  const t = serveThisFile({
    start: () => {
      webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-static-'));
      fs.mkdirSync(path.join(webDir, 'assets'));
      fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>t</title>');
      fs.writeFileSync(path.join(webDir, 'assets/app-0a1b2c.js'), script);
      fs.writeFileSync(path.join(webDir, 'assets/app-0a1b2c.js.map'), '{"version":3,"sources":[]}');
      precompressDir(webDir);
      return { clientDir: webDir };
    },
  });
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

  /** The bytes as sent (fetch would decode them itself). */
  function get(acceptEncoding: string) {
    return new Promise<{ response: http.IncomingMessage; bytes: Buffer }>((resolve, reject) => {
      http
        .get(
          `${t.server.url}/assets/app-0a1b2c.js`,
          { headers: { 'accept-encoding': acceptEncoding } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ response, bytes: Buffer.concat(chunks) }));
          },
        )
        .on('error', reject);
    });
  }

  it('answers any other GET outside the API with the page, as curl asks for it too', async () => {
    for (const [url, accept] of [
      ['/', '*/*'],
      ['/', undefined],
      ['/clients/abc?q=x', '*/*'],
      ['/sign-in', 'text/html'],
    ] as const) {
      const response = await fetch(`${t.server.url}${url}`, {
        headers: accept === undefined ? {} : { accept },
      });
      expect(response.status, `${url} ${accept}`).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toBe('<!doctype html><title>t</title>');
    }
  });

  it('keeps API paths, missing assets and missing files a 404, not the page', async () => {
    const staff = await signUpVerified(t.server);
    for (const url of ['/api/nothing-here', '/assets/gone-123.js', '/robots.txt']) {
      const response = await staff.request('GET', url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-type'), url).toMatch(/^application\/json/);
    }
    const post = await staff.request('POST', '/somewhere');
    expect(post.status).toBe(404);
  });

  it('serves source maps to signed-in staff only: they hold the whole client source', async () => {
    const anonymous = await fetch(`${t.server.url}/assets/app-0a1b2c.js.map`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('"sources"');
    const staff = await signUpVerified(t.server);
    const signedIn = await staff.request('GET', '/assets/app-0a1b2c.js.map');
    expect(signedIn.status).toBe(200);
    // A shared cache (a proxy, a CDN) must not keep it and hand it to the next comer.
    expect(signedIn.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await fetch(`${t.server.url}/assets/app-0a1b2c.js`)).status).toBe(200);
  });

  it('sends the brotli copy to a browser that accepts it, cached for good', async () => {
    const { response, bytes } = await get('gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(bytes.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(bytes).toString()).toBe(script);
  });

  it('has no address of its own for a compressed copy', async () => {
    for (const url of ['/assets/app-0a1b2c.js.br', '/assets/app-0a1b2c.js.gz', '/index.html.br']) {
      const response = await fetch(`${t.server.url}${url}`);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-encoding'), url).toBeNull();
    }
  });

  it('sends gzip where brotli is not accepted, and the file itself where neither is', async () => {
    const gzip = await get('gzip');
    expect(gzip.response.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.bytes).toString()).toBe(script);
    const plain = await get('identity');
    expect(plain.response.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString()).toBe(script);
  });
});

describe('without a web build', () => {
  it('answers / with the 404 JSON it always did', async () => {
    const server = await startTestServer();
    try {
      const response = await fetch(`${server.url}/`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'No route GET /' });
    } finally {
      await server.close();
    }
  });
});
