import { describe, expect, it } from 'vitest';
import {
  Session,
  serverPort,
  signUpVerified,
  startTestServer,
  uniqueEmail,
} from '#server/testing/test-server.ts';
import { linkIn } from '#server/testing/mail-catcher.ts';

describe('auth hardening', () => {
  it('refuses cross-site POSTs to the auth routes', async () => {
    const server = await startTestServer();
    try {
      const email = uniqueEmail();
      await signUpVerified(server, { email, password: 'cross site pw' });
      const response = await new Session(server).request(
        'POST',
        '/api/auth/sign-in/email',
        { email, password: 'cross site pw' },
        { origin: 'https://evil.example' },
      );
      expect(response.status).toBe(403);
      expect(response.headers.getSetCookie()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('marks cookies Secure when PUBLIC_URL is https', async () => {
    const port = await serverPort();
    const publicUrl = `https://127.0.0.1:${port}`;
    // Announced as https (as behind a TLS proxy) while the test talks plain HTTP to it.
    const server = await startTestServer({ PUBLIC_URL: publicUrl }, { port });
    try {
      const email = uniqueEmail();
      const before = server.mail.mails.length;
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: publicUrl },
        body: JSON.stringify({ email, password: 'secure cookie pw', name: 'S' }),
      });
      expect(signUp.status).toBe(200);
      const link = linkIn(await server.mail.waitFor(email, 'Verify your email', before));
      expect(link.startsWith(publicUrl)).toBe(true);
      const verified = await fetch(`${server.url}/api/auth/confirm-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: publicUrl },
        body: JSON.stringify({
          token: new URL(link).searchParams.get('token'),
          password: 'secure cookie pw',
        }),
      });
      expect(verified.status).toBe(200);
      const cookies = verified.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/i);
      const hsts = (await fetch(`${server.url}/healthz`)).headers.get('strict-transport-security');
      expect(hsts).toMatch(/max-age=\d+/);
    } finally {
      await server.close();
    }
  });

  it.each([
    [{}, true],
    [{ ALLOWED_EMAIL_DOMAINS: 'example.com' }, false],
    [{ ALLOWED_EMAILS: 'one@example.com' }, false],
  ])('with %j, warns at start that anyone may sign up: %s', async (env, warns) => {
    const lines: string[] = [];
    const server = await startTestServer(
      { ...env, LOG_LEVEL: 'warn' },
      { logStream: { write: (l) => lines.push(l) } },
    );
    await server.close();
    expect(lines.some((l) => l.includes('anyone who can reach this server may sign up'))).toBe(
      warns,
    );
  });
});
