import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { SMALL_WEB_BUILD, signUpVerified, startTestServer } from './testing/test-server.ts';
import { serveThisFile } from './testing/file-server.ts';
import { linkIn } from './testing/mail-catcher.ts';
import { runScript } from './testing/run-script.ts';

async function runMain(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const { code, err } = await runScript('src/server/main.ts', [], { env });
  return { code, stderr: err };
}

describe('start-up', () => {
  it.each([
    [{ PORT: 'abc' }, 'Invalid setting PORT: must be a whole number between 0 and 65535'],
    [
      { DATABASE_URL: 'mongodb://db/x' },
      'Invalid setting DATABASE_URL: must start with sqlite:, file: or postgres://',
    ],
  ])('stops with one line naming the variable for %j', async (env, line) => {
    const { code, stderr } = await runMain({ ...env, DATA_DIR: os.tmpdir() });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(line);
  });
});

describe('the built web app', () => {
  const t = serveThisFile({
    start: { webFiles: SMALL_WEB_BUILD },
  });

  it('answers any page route with index.html, revalidated', async () => {
    for (const route of ['/', '/clients/abc', '/sign-in', '/settings']) {
      const response = await fetch(`${t.server.url}${route}`, { headers: { accept: 'text/html' } });
      expect(response.status, route).toBe(200);
      expect(await response.text()).toContain('<title>Clients Manager</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year', async () => {
    const response = await fetch(`${t.server.url}/assets/index-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('keeps API 404s as JSON and sends a strict CSP', async () => {
    const session = await signUpVerified(t.server);
    const missing = await fetch(`${t.server.url}/api/nothing-here`, {
      headers: { accept: 'text/html', cookie: session.cookieHeader },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'No route GET /api/nothing-here' });
    const page = await fetch(`${t.server.url}/`, { headers: { accept: 'text/html' } });
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

describe('logs', () => {
  it('never carry passwords, tokens or session cookies', async () => {
    const lines: string[] = [];
    const server = await startTestServer(
      { LOG_LEVEL: 'trace' },
      { logStream: { write: (l) => lines.push(l) } },
    );
    try {
      const session = await signUpVerified(server, { password: 'pw-NEVER-LOGGED-1' });
      // The confirmation page, opened from the mail as a browser opens it.
      const confirmMail = server.mail.mails.find((mail) => mail.subject.startsWith('Verify'))!;
      await (await fetch(linkIn(confirmMail))).body?.cancel();
      await session.json('PUT', '/api/me/access-token', { accessToken: 'tok-NEVER-LOGGED-2' });
      const created = await session.json<{ id: string }>('POST', '/api/clients', {
        server: { password: 'srv-NEVER-LOGGED-3' },
      });
      await session.json('GET', `/api/clients/${created.body.id}/password`);
      await session.json('POST', '/api/clients', '{"server": {"password": "broken-NEVER-LOGGED-4"');
      const sessionToken = session.cookies.get('cm.session_token')!;
      const all = lines.join('\n');
      expect(all).toContain('request completed');
      for (const secret of [
        'NEVER-LOGGED',
        sessionToken,
        decodeURIComponent(sessionToken).split('.')[0]!,
      ]) {
        expect(all).not.toContain(secret);
      }
      // The verification link's token is cut from the logged URL.
      expect(all).toMatch(/confirm-email\?token=\[redacted\]/);
    } finally {
      await server.close();
    }
  });
});
