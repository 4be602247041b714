import { describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { Session, signUpVerified, uniqueEmail } from '#server/testing/test-server.ts';

/** Settings for one's own account: the display name and the password (Better Auth's routes). */
const t = serveThisFile({ staff: { owner: { name: 'Owner' } } });

describe('one’s own display name', () => {
  it('changes, and is refused past 200 characters with the field named', async () => {
    const session = t.staff.owner;
    const saved = await session.json('POST', '/api/auth/update-user', { name: 'Ada L.' });
    expect(saved.status).toBe(200);
    expect((await session.json<Me>('GET', '/api/me')).body.displayName).toBe('Ada L.');

    const refused = await session.json<{ message: string }>('POST', '/api/auth/update-user', {
      name: 'x'.repeat(201),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('name: Must be at most 200 characters');
    expect((await session.json<Me>('GET', '/api/me')).body.displayName).toBe('Ada L.');
  });

  it('takes emoji as a name shown on one line does, and refuses a hidden character', async () => {
    const session = t.staff.owner;
    for (const name of ['Ada 👩‍💻', 'Ada ❤️', 'Ada 🏳️‍🌈']) {
      expect((await session.json('POST', '/api/auth/update-user', { name })).status, name).toBe(
        200,
      );
      expect((await session.json<Me>('GET', '/api/me')).body.displayName).toBe(name);
    }
    const refused = await session.json<{ message: string }>('POST', '/api/auth/update-user', {
      name: 'Ada\u200d',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^name: Must not contain control, bidi or zero-width/);
    expect((await session.json<Me>('GET', '/api/me')).body.displayName).toBe('Ada 🏳️‍🌈');
  });

  it('is refused, with the field named, unless it is text: nothing is stored', async () => {
    const session = t.staff.owner;
    expect((await session.json('POST', '/api/auth/update-user', { name: 'Ada' })).status).toBe(200);
    for (const body of [
      { name: ['a', 'b'] },
      { name: true },
      { name: 5 },
      { name: {} },
      { name: null },
      { image: ['x'] },
      { image: { url: 'x' } },
      { image: 5 },
    ]) {
      const refused = await session.json<{ code: string; message: string }>(
        'POST',
        '/api/auth/update-user',
        body,
      );
      expect({ body, ...refused.body, status: refused.status }).toEqual({
        body,
        status: 400,
        code: 'INVALID_TEXT',
        message: `${Object.keys(body)[0]}: Must be text`,
      });
    }
    const me = (await session.json<Me>('GET', '/api/me')).body;
    expect(me.displayName).toBe('Ada');
    const { image } = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select('image')
      .where('id', '=', me.id)
      .executeTakeFirstOrThrow();
    expect(image).toBeNull();
    // Removing the picture stays possible.
    expect((await session.json('POST', '/api/auth/update-user', { image: null })).status).toBe(200);
  });
});

describe('one’s own password', () => {
  it('needs the current one, and signs out every other session of the person', async () => {
    const email = uniqueEmail('changer');
    const here = await signUpVerified(t.server, { email, password: 'old password 1' });
    const elsewhere = new Session(t.server);
    const signIn = await elsewhere.json('POST', '/api/auth/sign-in/email', {
      email,
      password: 'old password 1',
    });
    expect(signIn.status).toBe(200);

    const wrong = await here.json<{ code: string }>('POST', '/api/auth/change-password', {
      currentPassword: 'not my password',
      newPassword: 'new password 2',
      revokeOtherSessions: true,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_PASSWORD');
    expect((await elsewhere.json('GET', '/api/me')).status).toBe(200);

    const changed = await here.json('POST', '/api/auth/change-password', {
      currentPassword: 'old password 1',
      newPassword: 'new password 2',
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    // This browser goes on with the new session it was given; the other one is signed out.
    expect((await here.json('GET', '/api/me')).status).toBe(200);
    expect((await elsewhere.json('GET', '/api/me')).status).toBe(401);

    const again = new Session(t.server);
    const old = await again.json('POST', '/api/auth/sign-in/email', {
      email,
      password: 'old password 1',
    });
    expect(old.status).toBe(401);
    const fresh = await again.json('POST', '/api/auth/sign-in/email', {
      email,
      password: 'new password 2',
    });
    expect(fresh.status).toBe(200);
  });
});
