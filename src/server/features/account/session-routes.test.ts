import { describe, expect, it } from 'vitest';
import type { UserSessions } from '#shared/account.ts';
import { Session, signUpVerified, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile();

describe('own sessions', () => {
  it('lists the devices signed in, marks this one, and signs out all others', async () => {
    const email = uniqueEmail();
    const laptop = await signUpVerified(t.server, { email, password: 'several devices' });
    const phone = new Session(t.server);
    await phone.request(
      'POST',
      '/api/auth/sign-in/email',
      { email, password: 'several devices' },
      { 'user-agent': 'Phone/1.0' },
    );

    const listed = await laptop.json<UserSessions>('GET', '/api/me/sessions');
    expect(listed.body.sessions).toHaveLength(2);
    expect(listed.body.sessions.filter((s) => s.current)).toHaveLength(1);
    expect(listed.body.sessions.map((s) => s.userAgent)).toContain('Phone/1.0');
    expect(JSON.stringify(listed.body)).not.toContain(
      laptop.cookies.get('cm.session_token')!.split('.')[0],
    );

    expect((await laptop.json('POST', '/api/me/sessions/revoke-others', {})).status).toBe(200);
    expect((await phone.json('GET', '/api/me')).status).toBe(401);
    expect((await laptop.json('GET', '/api/me')).status).toBe(200);
    expect((await laptop.json<UserSessions>('GET', '/api/me/sessions')).body.sessions).toHaveLength(
      1,
    );
  });
});
