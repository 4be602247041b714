import { describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import { Session, signUpVerified, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile();

describe('the list view kept on the user', () => {
  it('is the list at first, and the table once set, in every session of that person', async () => {
    const email = uniqueEmail();
    const laptop = await signUpVerified(t.server, { email, password: 'two browsers' });
    expect((await laptop.json<Me>('GET', '/api/me')).body.listView).toBe('list');

    const set = await laptop.json('POST', '/api/auth/update-user', { listView: 'table' });
    expect(set.status).toBe(200);
    expect((await laptop.json<Me>('GET', '/api/me')).body.listView).toBe('table');

    // Another browser signing in later sees the same choice.
    const phone = new Session(t.server);
    const signIn = await phone.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'two browsers',
    });
    expect(signIn.status).toBe(200);
    expect((await phone.json<Me>('GET', '/api/me')).body.listView).toBe('table');
    const session = await phone.json<{ user: { listView: string } }>(
      'GET',
      '/api/auth/get-session',
    );
    expect(session.body.user.listView).toBe('table');
  });

  it('refuses any other value with a 400 naming the field, and keeps the one stored', async () => {
    const person = await signUpVerified(t.server, { email: uniqueEmail() });
    for (const listView of ['grid', '', 42, null]) {
      const refused = await person.json<{ message: string }>('POST', '/api/auth/update-user', {
        listView,
      });
      expect(refused.status, JSON.stringify(listView)).toBe(400);
      expect(refused.body.message).toMatch(/^listView: /);
    }
    expect((await person.json<Me>('GET', '/api/me')).body.listView).toBe('list');
  });
});
