import { describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import type { AuditPage, Invitation, PeopleList, Person } from '#shared/people-admin.ts';
import { Session, signUpVerified, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { setAccess } from '#server/testing/access.ts';
import { linkIn } from '#server/testing/mail-catcher.ts';
import { fromBool } from '#server/db/codec.ts';
import { enrolTotp, signInWithPassword } from '#server/testing/second-factor-steps.ts';
import type { CreatedToken } from '#shared/tokens.ts';
import { ADMIN_TAGS_MESSAGE } from '#shared/people.ts';

const t = serveThisFile({
  // Many sign-ups from one address in a minute: more than the default limit lets through.
  env: { AUTH_RATE_LIMIT_PER_MINUTE: '200' },
  staff: {
    admin: { name: 'Ada Admin', role: 'admin' },
    editor: { name: 'Ed Editor', role: 'editor' },
  },
});

async function newPerson(options: { password?: string } = {}) {
  const email = uniqueEmail('person');
  const session = await signUpVerified(t.server, { email, ...options });
  const id = await setAccess(t.server, session, {});
  return { email, session, id };
}

async function personOf(id: string): Promise<Person> {
  const list = await t.staff.admin.json<PeopleList>('GET', '/api/people');
  expect(list.status).toBe(200);
  const person = list.body.people.find((p) => p.id === id);
  if (!person) throw new Error(`person ${id} not listed`);
  return person;
}

async function auditOf(query: string): Promise<AuditPage> {
  const page = await t.staff.admin.json<AuditPage>('GET', `/api/audit${query}`);
  expect(page.status).toBe(200);
  return page.body;
}

describe('the people list', () => {
  it('lists everyone with role, tags, devices and last sign-in', async () => {
    const { id, email, session } = await newPerson();
    await setAccess(t.server, session, { role: 'viewer', tags: ['eu'] });
    const person = await personOf(id);
    expect(person).toMatchObject({
      email,
      role: 'viewer',
      tags: ['eu'],
      twoFactorEnabled: false,
      passkeys: 0,
      disabled: false,
      emailVerified: true,
    });
    expect(person.lastSignInAt).not.toBeNull();
    expect(person.devices).toHaveLength(1);
    expect(person.devices[0]).toHaveProperty('lastSeenAt');
    // No session token reaches the browser.
    const raw = JSON.stringify(await t.staff.admin.json('GET', '/api/people'));
    expect(raw).not.toContain(session.cookies.get('cm.session_token')!.split('.')[0]);
  });

  it('is for administrators only', async () => {
    const somebody = await newPerson();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/people'],
      ['PATCH', `/api/people/${somebody.id}`, { role: 'admin' }],
      ['POST', `/api/people/${somebody.id}/sign-out`, {}],
      ['POST', `/api/people/${somebody.id}/reset-second-factor`, {}],
      ['POST', '/api/people/invitations', { email: uniqueEmail('x'), role: 'admin', tags: null }],
      ['DELETE', '/api/people/invitations/some-id'],
      ['GET', '/api/audit'],
    ];
    for (const [method, url, body] of routes) {
      const answer = await t.staff.editor.json<{ error: string }>(method, url, body);
      expect(answer.status, `${method} ${url}`).toBe(403);
      expect(answer.body.error).toBe('Only an administrator may do this');
    }
    expect((await personOf(somebody.id)).role).toBe('editor');
  });
});

describe('changing a person', () => {
  it('changes the role and the tags, and lifts the limit with null', async () => {
    const { id, session } = await newPerson();
    const changed = await t.staff.admin.json<Person>('PATCH', `/api/people/${id}`, {
      role: 'viewer',
      tags: 'eu, acme',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ role: 'viewer', tags: ['eu', 'acme'] });
    const me = await session.json<Me>('GET', '/api/me');
    expect(me.body).toMatchObject({ role: 'viewer', tags: ['eu', 'acme'] });

    const lifted = await t.staff.admin.json<Person>('PATCH', `/api/people/${id}`, { tags: null });
    expect(lifted.body.tags).toBeNull();

    const events = await auditOf(`?person=${id}`);
    expect(events.events.map((e) => e.kind)).toEqual([
      'person.tags_changed',
      'person.tags_changed',
      'person.role_changed',
    ]);
    const roleChange = events.events[2]!;
    expect(roleChange.fields).toEqual(['role', 'role:viewer']);
    expect(roleChange.actor.name).toBe((await t.staff.admin.json<Me>('GET', '/api/me')).body.email);
    expect(roleChange.personId).toBe(id);
    expect(events.people[id]).toBeDefined();
  });

  it('refuses an empty tag list, an unknown role and unknown fields, naming the field', async () => {
    const { id } = await newPerson();
    const empty = await t.staff.admin.json<{ fields: Record<string, string> }>(
      'PATCH',
      `/api/people/${id}`,
      { tags: [] },
    );
    expect(empty.status).toBe(400);
    // The message alone: the field is its key (the summary names it once).
    expect(empty.body.fields.tags).toBe('Name at least one tag, or lift the limit');
    const role = await t.staff.admin.json<{ fields: Record<string, string> }>(
      'PATCH',
      `/api/people/${id}`,
      { role: 'owner' },
    );
    expect(role.status).toBe(400);
    expect(role.body.fields.role).toBe('Must be admin, editor or viewer');
    expect(
      (await t.staff.admin.json('PATCH', `/api/people/${id}`, { email: 'x@example.test' })).status,
    ).toBe(400);
    expect(
      (await t.staff.admin.json('PATCH', '/api/people/nobody', { role: 'viewer' })).status,
    ).toBe(404);
  });

  it('gives an administrator no tag limit: refused with a 400, lifted on promotion', async () => {
    const { id, session } = await newPerson();
    await setAccess(t.server, session, { role: 'editor', tags: ['eu'] });
    type Refusal = { fields: Record<string, string> };
    const limitedAdmin = await t.staff.admin.json<Refusal>('PATCH', `/api/people/${id}`, {
      role: 'admin',
      tags: ['eu'],
    });
    expect(limitedAdmin.status).toBe(400);
    expect(limitedAdmin.body.fields.tags).toBe(ADMIN_TAGS_MESSAGE);
    expect(await personOf(id)).toMatchObject({ role: 'editor', tags: ['eu'] });

    const promoted = await t.staff.admin.json<Person>('PATCH', `/api/people/${id}`, {
      role: 'admin',
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ role: 'admin', tags: null });
    expect((await session.json<Me>('GET', '/api/me')).body).toMatchObject({ tags: null });
    const kinds = (await auditOf(`?person=${id}`)).events.map((e) => e.kind);
    expect(kinds.slice(0, 2)).toEqual(['person.tags_changed', 'person.role_changed']);

    const relimited = await t.staff.admin.json<Refusal>('PATCH', `/api/people/${id}`, {
      tags: ['eu'],
    });
    expect(relimited.status).toBe(400);
    expect(relimited.body.fields.tags).toBe(ADMIN_TAGS_MESSAGE);
    expect((await personOf(id)).tags).toBeNull();
  });

  it('disabling ends their sessions at once and refuses sign-in; enabling lets them back', async () => {
    const password = 'disabled for a while';
    const { id, email, session } = await newPerson({ password });
    const disabled = await t.staff.admin.json<Person>('PATCH', `/api/people/${id}`, {
      disabled: true,
    });
    expect(disabled.body).toMatchObject({ disabled: true, devices: [] });
    expect((await session.json('GET', '/api/me')).status).toBe(401);
    const again = new Session(t.server);
    const refused = await again.request('POST', '/api/auth/sign-in/email', { email, password });
    expect(refused.status).toBe(403);

    await t.staff.admin.json('PATCH', `/api/people/${id}`, { disabled: false });
    const back = await again.request('POST', '/api/auth/sign-in/email', { email, password });
    expect(back.status).toBe(200);
    expect((await again.json('GET', '/api/me')).status).toBe(200);
    const kinds = (await auditOf(`?person=${id}`)).events.map((e) => e.kind);
    expect(kinds).toEqual(['person.enabled', 'person.disabled']);
  });

  it('signs a person out everywhere', async () => {
    const password = 'two devices here';
    const { id, email, session } = await newPerson({ password });
    const phone = new Session(t.server);
    await phone.request('POST', '/api/auth/sign-in/email', { email, password });
    expect((await personOf(id)).devices).toHaveLength(2);

    const answer = await t.staff.admin.json<Person>('POST', `/api/people/${id}/sign-out`, {});
    expect(answer.status).toBe(200);
    expect(answer.body.devices).toEqual([]);
    expect((await session.json('GET', '/api/me')).status).toBe(401);
    expect((await phone.json('GET', '/api/me')).status).toBe(401);
    const [event] = (await auditOf(`?person=${id}&kind=person.signed_out`)).events;
    expect(event).toMatchObject({ kind: 'person.signed_out', personId: id, fields: [] });
  });

  it('signing out everywhere revokes their API tokens and a sign-in waiting for its code', async () => {
    const password = 'tokens and codes';
    const { id, email, session } = await newPerson({ password });
    const made = await session.json<CreatedToken>('POST', '/api/me/tokens', {
      name: 'made with a stolen session',
      scope: 'write',
      expiresInDays: null,
    });
    expect(made.status).toBe(201);
    const withToken = () =>
      fetch(new URL('/api/clients', t.server.url), {
        headers: { authorization: `Bearer ${made.body.secret}` },
      });
    expect((await withToken()).status).toBe(200);
    const { app } = await enrolTotp(session, password);
    const { session: waiting, body } = await signInWithPassword(t.server, email, password);
    expect(body.twoFactorRedirect).toBe(true);

    const answer = await t.staff.admin.json<Person>('POST', `/api/people/${id}/sign-out`, {});
    expect(answer.status).toBe(200);

    expect((await withToken()).status).toBe(401);
    const code = await waiting.request('POST', '/api/auth/two-factor/verify-totp', {
      code: await app.nextCode(),
    });
    expect(code.status).toBe(401);
    expect((await waiting.json('GET', '/api/me')).status).toBe(401);
    const [revoked] = (await auditOf(`?person=${id}&kind=person.token_revoked`)).events;
    expect(revoked).toMatchObject({ personId: id, fields: ['name', 'scope:write'] });
    const admin = await t.staff.admin.json<Me>('GET', '/api/me');
    expect(revoked?.actor.id).toBe(admin.body.id);
  });

  it('resets the second factor: authenticator, backup codes and passkeys go', async () => {
    const { id } = await newPerson();
    const { kysely, dialect } = t.server.app.parts.db;
    await kysely
      .insertInto('twoFactor')
      .values({ id: `tf-${id}`, secret: 'sealed', backupCodes: 'sealed', userId: id })
      .execute();
    await kysely
      .insertInto('passkey')
      .values({
        id: `pk-${id}`,
        publicKey: 'key',
        userId: id,
        credentialID: `cred-${id}`,
        counter: 0,
        deviceType: 'singleDevice',
        backedUp: fromBool(false, dialect),
      })
      .execute();
    await kysely
      .updateTable('user')
      .set({ twoFactorEnabled: fromBool(true, dialect) })
      .where('id', '=', id)
      .execute();
    expect(await personOf(id)).toMatchObject({ twoFactorEnabled: true, passkeys: 1 });

    const reset = await t.staff.admin.json<Person>(
      'POST',
      `/api/people/${id}/reset-second-factor`,
      {},
    );
    expect(reset.body).toMatchObject({ twoFactorEnabled: false, passkeys: 0 });
    const left = await kysely
      .selectFrom('twoFactor')
      .select('id')
      .where('userId', '=', id)
      .execute();
    expect(left).toEqual([]);
    const [event] = (await auditOf(`?person=${id}`)).events;
    expect(event?.kind).toBe('person.second_factor_reset');
    expect(JSON.stringify(event)).not.toContain('sealed');
  });
});

describe('invitations', () => {
  async function invite(email: string, role = 'viewer', tags: string[] | null = ['eu']) {
    const before = t.server.mail.mails.length;
    const created = await t.staff.admin.json<Invitation>('POST', '/api/people/invitations', {
      email,
      role,
      tags,
    });
    expect(created.status).toBe(201);
    const mail = await t.server.mail.waitFor(email, 'invited to Clients Manager', before);
    const link = new URL(linkIn(mail));
    expect(link.pathname).toBe('/sign-up');
    return { invitation: created.body, token: link.searchParams.get('invitation')! };
  }

  function signUp(session: Session, email: string, token: string, password = 'invited person') {
    return session.json<{ code?: string; message?: string }>('POST', '/api/auth/sign-up/email', {
      email,
      password,
      name: 'Invited',
      invitation: token,
      callbackURL: '/',
    });
  }

  it('refuses tags on an invitation to be an administrator, naming the field', async () => {
    const refused = await t.staff.admin.json<{ fields: Record<string, string> }>(
      'POST',
      '/api/people/invitations',
      { email: uniqueEmail('admin-invite'), role: 'admin', tags: ['eu'] },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fields.tags).toBe(ADMIN_TAGS_MESSAGE);
  });

  it('mails a link; signing up with it gives the invited role and tags, verified', async () => {
    const email = uniqueEmail('invited');
    const { invitation, token } = await invite(email, 'viewer', ['eu', 'acme']);
    expect(invitation).toMatchObject({ email, role: 'viewer', tags: ['eu', 'acme'] });
    const listed = await t.staff.admin.json<PeopleList>('GET', '/api/people');
    expect(listed.body.invitations.map((i) => i.id)).toContain(invitation.id);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const visitor = new Session(t.server);
    const lookup = await visitor.json<{ email: string }>('GET', `/api/invitations/${token}`);
    expect(lookup).toEqual({ status: 200, body: { email } });

    const mailsBefore = t.server.mail.mails.length;
    expect((await signUp(visitor, email.toUpperCase(), token)).status).toBe(200);
    const signIn = await visitor.request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'invited person',
    });
    expect(signIn.status).toBe(200);
    const me = await visitor.json<Me>('GET', '/api/me');
    expect(me.body).toMatchObject({ email, role: 'viewer', tags: ['eu', 'acme'] });
    // Verified by the invitation: no verification mail was sent.
    expect(t.server.mail.mails.slice(mailsBefore).filter((m) => m.to.includes(email))).toEqual([]);

    const after = await t.staff.admin.json<PeopleList>('GET', '/api/people');
    expect(after.body.invitations.map((i) => i.id)).not.toContain(invitation.id);
    const audit = await auditOf('?kind=person.joined');
    const joined = audit.events.find((e) => e.personId === me.body.id);
    expect(joined?.fields).toEqual([`invitation:${invitation.id}`]);
    expect(audit.people[me.body.id]).toBe(email);
    const invited = (await auditOf('?kind=person.invited')).events.find(
      (e) => e.personId === invitation.id,
    );
    expect(invited?.fields).toEqual(['email', 'role:viewer', 'tags']);
    expect(JSON.stringify(await auditOf(''))).not.toContain(token);
  });

  it('refuses another address with the token, a used token and an expired one', async () => {
    const email = uniqueEmail('invited');
    const { token } = await invite(email);
    const other = uniqueEmail('other');
    const intruder = new Session(t.server);
    const refused = await signUp(intruder, other, token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`email: This invitation is for ${email}`);
    const created = await t.server.app.parts.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', other)
      .execute();
    expect(created).toEqual([]);

    expect((await signUp(new Session(t.server), email, token)).status).toBe(200);
    const reused = await signUp(new Session(t.server), email, token);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('INVITATION_INVALID');
    expect((await new Session(t.server).json('GET', `/api/invitations/${token}`)).status).toBe(404);

    const late = uniqueEmail('late');
    const { invitation, token: lateToken } = await invite(late);
    await t.server.app.parts.db.kysely
      .updateTable('invitation')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', invitation.id)
      .execute();
    expect((await new Session(t.server).json('GET', `/api/invitations/${lateToken}`)).status).toBe(
      404,
    );
    expect((await signUp(new Session(t.server), late, lateToken)).status).toBe(400);
    expect((await new Session(t.server).json('GET', '/api/invitations/made-up')).status).toBe(404);
  });

  it('a sign-up by password without the token is refused while the invitation is pending', async () => {
    const email = uniqueEmail('invited');
    const { invitation } = await invite(email, 'admin', null);
    const refused = await new Session(t.server).json<{ code?: string; message?: string }>(
      'POST',
      '/api/auth/sign-up/email',
      { email, password: 'whoever typed this', name: 'Not Shown' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'INVITATION_REQUIRED',
      message: 'email: This address has an invitation: sign up through the link in its mail',
    });
    // No account, so no verification link to mail.
    expect(
      await t.server.app.parts.db.kysely
        .selectFrom('user')
        .select('id')
        .where('email', '=', email)
        .execute(),
    ).toEqual([]);

    // Once the invitation is revoked, the address signs up as any other: the default role.
    const revoked = await t.staff.admin.request(
      'DELETE',
      `/api/people/invitations/${invitation.id}`,
    );
    expect(revoked.status).toBe(204);
    const session = await signUpVerified(t.server, { email });
    expect((await session.json<Me>('GET', '/api/me')).body.role).toBe('editor');
  });

  it('invites an address someone else signed up unverified; that account gets no access', async () => {
    const email = uniqueEmail('pending');
    const outsider = await new Session(t.server).request('POST', '/api/auth/sign-up/email', {
      email,
      password: 'outsider chose this',
      name: 'Pending',
    });
    expect(outsider.status).toBe(200);
    const listed = await t.staff.admin.json<PeopleList>('GET', '/api/people');
    const pending = listed.body.people.find((p) => p.email === email)!;
    expect(pending).toMatchObject({ emailVerified: false, role: 'editor' });

    // Access given now would be the outsider's once the owner follows their verification link.
    for (const patch of [{ role: 'admin' }, { tags: ['eu'] }]) {
      const refused = await t.staff.admin.json<{ error: string }>(
        'PATCH',
        `/api/people/${pending.id}`,
        patch,
      );
      expect(refused.status, JSON.stringify(patch)).toBe(409);
      expect(refused.body.error).toMatch(/has not verified .* invite them instead/);
    }
    expect(await personOf(pending.id)).toMatchObject({ role: 'editor', tags: null });

    // The invitation is sent, and its sign-up starts the account over with the owner's password.
    const { token } = await invite(email, 'admin', null);
    expect((await signUp(new Session(t.server), email, token, 'owner chose this')).status).toBe(
      200,
    );
    const outsiderSignIn = await new Session(t.server).request('POST', '/api/auth/sign-in/email', {
      email,
      password: 'outsider chose this',
    });
    expect(outsiderSignIn.status).toBe(401);
    const owner = new Session(t.server);
    await owner.request('POST', '/api/auth/sign-in/email', { email, password: 'owner chose this' });
    expect((await owner.json<Me>('GET', '/api/me')).body).toMatchObject({ email, role: 'admin' });
  });

  it('revokes a pending invitation, and refuses an address that has an account', async () => {
    const email = uniqueEmail('invited');
    const { invitation, token } = await invite(email);
    const revoked = await t.staff.admin.request(
      'DELETE',
      `/api/people/invitations/${invitation.id}`,
    );
    expect(revoked.status).toBe(204);
    expect((await new Session(t.server).json('GET', `/api/invitations/${token}`)).status).toBe(404);
    expect((await signUp(new Session(t.server), email, token)).status).toBe(400);
    const [event] = (await auditOf(`?person=${invitation.id}`)).events;
    expect(event?.kind).toBe('person.invitation_revoked');
    expect(
      (await t.staff.admin.request('DELETE', `/api/people/invitations/${invitation.id}`)).status,
    ).toBe(404);

    const member = await newPerson();
    const exists = await t.staff.admin.json<{ fields: Record<string, string> }>(
      'POST',
      '/api/people/invitations',
      { email: member.email, role: 'viewer' },
    );
    expect(exists.status).toBe(409);
    expect(exists.body.fields.email).toMatch(/has an account already/);
  });
});

describe('the audit trail', () => {
  it('filters by kind, actor and person, newest first, a page at a time', async () => {
    const a = await newPerson();
    for (const role of ['viewer', 'editor', 'viewer'] as const) {
      await t.staff.admin.json('PATCH', `/api/people/${a.id}`, { role });
    }
    const first = await auditOf(`?person=${a.id}&limit=2`);
    expect(first.events.map((e) => e.fields[1])).toEqual(['role:viewer', 'role:editor']);
    expect(first.next).toBe(first.events[1]!.seq);
    const second = await auditOf(`?person=${a.id}&limit=2&before=${first.next}`);
    expect(second.events.map((e) => e.fields[1])).toEqual(['role:viewer']);
    expect(second.next).toBeNull();

    const adminId = (await t.staff.admin.json<Me>('GET', '/api/me')).body.id;
    const byAdmin = await auditOf(`?actor=${adminId}&kind=person.role_changed`);
    expect(byAdmin.events.length).toBeGreaterThanOrEqual(3);
    expect(byAdmin.events.every((e) => e.actor.id === adminId)).toBe(true);
    expect(byAdmin.events.every((e) => e.kind === 'person.role_changed')).toBe(true);
    const seqs = byAdmin.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x));

    expect((await t.staff.admin.json('GET', '/api/audit?kind=client.created')).status).toBe(400);
  });
});

describe('ids in the path', () => {
  it('are refused with a 400 naming the id when they cannot be one, never a 500', async () => {
    const routes: [string, string][] = [
      ['PATCH', '/api/people/%00'],
      ['POST', '/api/people/%00/sign-out'],
      ['POST', '/api/people/%00/reset-second-factor'],
      ['DELETE', '/api/people/invitations/%00'],
      ['GET', '/api/invitations/%00'],
      ['POST', '/api/people/a%20b/sign-out'],
    ];
    for (const [method, url] of routes) {
      const answer = await t.staff.admin.json<{ error: string }>(
        method,
        url,
        method === 'PATCH' ? { role: 'viewer' } : undefined,
      );
      expect(answer.status, `${method} ${url}`).toBe(400);
      expect(answer.body.error, `${method} ${url}`).toMatch(/\b(id|token): Must be an id$/);
    }
  });
});
