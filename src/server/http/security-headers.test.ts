import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified, startTestServer, type TestServer } from '#server/testing/test-server.ts';
import { recordHeaderChanges } from './security-headers.ts';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(' ')];
      }),
  );
}

describe('security headers', () => {
  let http: TestServer;
  let https: TestServer;
  beforeAll(async () => {
    http = await startTestServer();
    // Behind a TLS-terminating proxy: PUBLIC_URL says https.
    https = await startTestServer({ PUBLIC_URL: 'https://clients.example' });
  });
  afterAll(async () => {
    await http?.close();
    await https?.close();
  });

  it("send the web app's Content-Security-Policy on every page", async () => {
    for (const url of ['/', '/sign-in', '/healthz']) {
      const response = await http.app.inject({ url, headers: { accept: 'text/html' } });
      const csp = directives(response.headers['content-security-policy'] as string | undefined);
      expect(csp, url).toMatchObject({
        'default-src': "'self'",
        // No inline scripts, no eval: a stored <script> or onerror= cannot run.
        'script-src': "'self'",
        'script-src-attr': "'none'",
        'object-src': "'none'",
        'base-uri': "'none'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
        'connect-src': "'self'",
        'img-src': "'self' data: https:",
        // Mantine sets CSS variables in style attributes and a <style> element at run time.
        'style-src': "'self' 'unsafe-inline'",
      });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it("send the API's answers a policy that lets nothing load or frame them, and no sniffing", async () => {
    // Answered, refused for want of a session, and unknown: every kind of API answer.
    for (const url of ['/api/config', '/api/clients', '/api/no-such-thing']) {
      const response = await http.app.inject({ url });
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.headers['content-security-policy'], url).toBe(
        "default-src 'none';frame-ancestors 'none'",
      );
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      // What only a page uses is left out.
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
    // The live stream writes its own head (a hijacked reply): the same headers.
    const session = await signUpVerified(http);
    const stream = new AbortController();
    const events = await fetch(`${http.url}/api/events`, {
      headers: { cookie: session.cookieHeader },
      signal: stream.signal,
    });
    stream.abort();
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(events.headers.get('content-security-policy')).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect(events.headers.get('x-content-type-options')).toBe('nosniff');

    const secure = await https.app.inject({ url: '/api/config' });
    expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  });

  it('send HSTS and upgrade requests only when PUBLIC_URL is https', async () => {
    const plain = await http.app.inject({ url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(directives(plain.headers['content-security-policy'] as string)).not.toHaveProperty(
      'upgrade-insecure-requests',
    );
    const secure = await https.app.inject({ url: '/healthz' });
    expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    expect(directives(secure.headers['content-security-policy'] as string)).toHaveProperty(
      'upgrade-insecure-requests',
    );
  });

  it('are recorded once, and a directive that would differ per request is refused', () => {
    expect(recordHeaderChanges({})).toContainEqual({
      set: 'X-Content-Type-Options',
      value: 'nosniff',
    });
    expect(() =>
      recordHeaderChanges({
        contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } },
      }),
    ).toThrow(/computed per request/);
  });
});
