import { beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientList } from '#shared/clients.ts';
import type { ApiTokenList, CreateTokenInput, CreatedToken } from '#shared/tokens.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { setAccess } from '#server/testing/access.ts';
import { SseReader } from '#server/testing/sse-reader.ts';
import { hashApiToken } from '#server/auth/api-tokens.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { ageSignIns } from '#server/testing/second-factor-steps.ts';
import { TOKEN_NEEDS_RECENT_SIGN_IN } from '#shared/tokens.ts';

/**
 * Personal API tokens against the real server: what each scope may do, never more than the
 * owner's role and tags at the time of the request; revoked, expired and disabled refusals;
 * cookies ignored beside a bearer token; no CSRF check for tokens; the per-token rate limit;
 * the audit trail; and no token in the log or the events.
 */

const RATE_LIMIT = 30;
const logLines: string[] = [];
const t = serveThisFile({
  env: { LOG_LEVEL: 'debug', API_TOKEN_RATE_LIMIT: String(RATE_LIMIT) },
  start: { logStream: { write: (line) => logLines.push(line) } },
  staff: {
    admin: { name: 'Admin' },
    editor: { name: 'Editor', role: 'editor' },
    viewer: { name: 'Viewer', role: 'viewer' },
    limited: { name: 'Limited', role: 'editor' },
  },
});

const PASSWORD = 'token-test-server-password';
/** Every token made in this file: none may show up in a log line or an event. */
const made: string[] = [];
let prod: Client;
let staging: Client;

beforeAll(async () => {
  const add = async (name: string, tags: string[]) => {
    const answer = await t.staff.admin.json<Client>('POST', '/api/clients', {
      name,
      tags,
      server: { host: `${name.toLowerCase()}.example`, username: 'deploy', password: PASSWORD },
    });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  prod = await add('Prod', ['prod']);
  staging = await add('Staging', ['staging']);
});

async function createToken(
  session: Session,
  input: Partial<CreateTokenInput> = {},
): Promise<CreatedToken> {
  const answer = await session.json<CreatedToken>('POST', '/api/me/tokens', {
    name: 'Deploy script',
    scope: 'read',
    expiresInDays: 30,
    ...input,
  });
  expect(answer.status).toBe(201);
  made.push(answer.body.secret);
  return answer.body;
}

/** A request with the token alone (no cookie, no Origin), as a script sends it. */
async function call(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(new URL(path, t.server.url), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as unknown) : null,
    headers: response.headers,
  };
}

const newClient = { name: 'Made with a token', tags: ['prod'] };

async function personEvents(kind: string, personId: string) {
  return t.server.app.parts.db.kysely
    .selectFrom('event')
    .selectAll()
    .where('kind', '=', kind)
    .where('personId', '=', personId)
    .execute();
}

async function idOf(session: Session): Promise<string> {
  return (await session.json<{ id: string }>('GET', '/api/me')).body.id;
}

describe('creating and listing', () => {
  it('shows the token once, lists it without it, and stores only its hash', async () => {
    const { token, secret } = await createToken(t.staff.editor, {
      name: 'CI',
      scope: 'write',
      expiresInDays: null,
    });
    expect(secret).toMatch(/^cm_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'CI', scope: 'write', expiresAt: null, lastUsedAt: null });
    expect(secret.startsWith(token.prefix)).toBe(true);

    const list = await t.staff.editor.json<ApiTokenList>('GET', '/api/me/tokens');
    expect(list.body.tokens.find((row) => row.id === token.id)).toEqual(token);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const rows = await t.server.app.parts.db.kysely.selectFrom('apiToken').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);
    // Someone else's list does not show it.
    const other = await t.staff.viewer.json<ApiTokenList>('GET', '/api/me/tokens');
    expect(other.body.tokens.some((row) => row.id === token.id)).toBe(false);

    expect(await call(secret, 'GET', '/api/clients')).toMatchObject({ status: 200 });
    const used = await t.staff.editor.json<ApiTokenList>('GET', '/api/me/tokens');
    expect(used.body.tokens.find((row) => row.id === token.id)!.lastUsedAt).not.toBeNull();
  });

  it('refuses a bad body with the fields named', async () => {
    const bad = await t.staff.editor.json<{ fields: Record<string, string> }>(
      'POST',
      '/api/me/tokens',
      { name: ' ', scope: 'admin', expiresInDays: 7 },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['expiresInDays', 'name', 'scope']);
  });

  it('refuses a name with bidi or zero-width characters, naming the field, and makes no token', async () => {
    const names = ['CI \u202Egpj.exe', 'C\u200BI', 'CI\nforged line'];
    for (const name of names) {
      const bad = await t.staff.editor.json<{ fields: Record<string, string> }>(
        'POST',
        '/api/me/tokens',
        { name, scope: 'read', expiresInDays: 30 },
      );
      expect(bad.status, JSON.stringify(name)).toBe(400);
      expect(bad.body.fields).toEqual({
        name: 'Must not contain control, bidi or zero-width characters: they can break or disguise the line it is shown on',
      });
    }
    const list = await t.staff.editor.json<ApiTokenList>('GET', '/api/me/tokens');
    expect(list.body.tokens.filter((row) => names.includes(row.name))).toEqual([]);
  });

  // A token works without the password or a second factor and outlives a password reset: a
  // session taken over from an unlocked browser hours after its sign-in must not make one.
  it('needs a sign-in from the last 10 minutes: an older session is refused, with what to do', async () => {
    const session = await signUpVerified(t.server);
    const id = await idOf(session);
    await ageSignIns(t.server.app.parts.db, id, 11);
    const refused = await session.json<{ error: string; code: string }>('POST', '/api/me/tokens', {
      name: 'Taken over',
      scope: 'write',
      expiresInDays: null,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: TOKEN_NEEDS_RECENT_SIGN_IN, code: 'SESSION_NOT_FRESH' });
    expect(
      await t.server.app.parts.db.kysely
        .selectFrom('apiToken')
        .where('userId', '=', id)
        .selectAll()
        .execute(),
    ).toEqual([]);
    // The rest of the account is not held to it.
    expect((await session.json('GET', '/api/me/tokens')).status).toBe(200);
    await ageSignIns(t.server.app.parts.db, id, 9);
    await createToken(session);
  });

  it('records creation and revocation in the audit trail, naming fields only', async () => {
    const editorId = await idOf(t.staff.editor);
    const { token } = await createToken(t.staff.editor, { name: 'Audited', scope: 'read' });
    expect((await t.staff.editor.json('DELETE', `/api/me/tokens/${token.id}`)).status).toBe(204);
    const created = await personEvents('person.token_created', editorId);
    expect(created.at(-1)!.fields).toBe(JSON.stringify(['name', 'scope:read', 'expiresAt']));
    const revoked = await personEvents('person.token_revoked', editorId);
    expect(revoked.at(-1)!.fields).toBe(JSON.stringify(['name', 'scope:read']));
    expect(revoked.at(-1)!.actorId).toBe(editorId);
    // An id no database could hold is refused as a bad id, never a server error.
    expect((await t.staff.editor.json('DELETE', '/api/me/tokens/%00')).status).toBe(400);
    // Someone else's token cannot be revoked: it is not theirs to see.
    const mine = await createToken(t.staff.editor);
    expect((await t.staff.viewer.json('DELETE', `/api/me/tokens/${mine.token.id}`)).status).toBe(
      404,
    );
  });
});

describe('scopes, never above the owner', () => {
  it('a read token reads but cannot write or reveal', async () => {
    const { secret } = await createToken(t.staff.editor, { scope: 'read' });
    const list = await call(secret, 'GET', '/api/clients');
    expect(list.status).toBe(200);
    expect((list.body as ClientList).clients.map((c) => c.id)).toEqual(
      expect.arrayContaining([prod.id, staging.id]),
    );
    expect(await call(secret, 'POST', '/api/clients', newClient)).toMatchObject({
      status: 403,
      body: { error: "This API token's scope (read) does not allow this" },
    });
    expect((await call(secret, 'GET', `/api/clients/${prod.id}/password`)).status).toBe(403);
    expect((await call(secret, 'GET', '/api/clients/export?secrets=1')).status).toBe(403);
    // The commands leave out the deployment command: it carries a secret.
    const commands = await call(secret, 'GET', `/api/clients/${prod.id}/commands`);
    expect(commands.status).toBe(200);
    expect(
      (commands.body as { commands: { id: string }[] }).commands.map((c) => c.id),
    ).not.toContain('deploy');
  });

  it('a read+secrets token reveals, is audited for it, and cannot write', async () => {
    const editorId = await idOf(t.staff.editor);
    const before = (await personEvents('person.token_secret_used', editorId)).length;
    const { secret } = await createToken(t.staff.editor, { scope: 'read+secrets' });
    const password = await call(secret, 'GET', `/api/clients/${prod.id}/password`);
    expect(password).toMatchObject({ status: 200, body: { password: PASSWORD } });
    expect((await call(secret, 'POST', '/api/clients', newClient)).status).toBe(403);
    const used = await personEvents('person.token_secret_used', editorId);
    expect(used.length).toBe(before + 1);
    expect(used.at(-1)!.fields).toBe(JSON.stringify(['scope:read+secrets']));
    // A refused reveal records nothing.
    const viewerToken = await createToken(t.staff.viewer, { scope: 'read+secrets' });
    const viewerId = await idOf(t.staff.viewer);
    expect((await call(viewerToken.secret, 'GET', `/api/clients/${prod.id}/password`)).status).toBe(
      403,
    );
    expect(await personEvents('person.token_secret_used', viewerId)).toEqual([]);
  });

  it("a viewer's write token still cannot write nor reveal", async () => {
    const { secret } = await createToken(t.staff.viewer, { scope: 'write' });
    expect((await call(secret, 'GET', '/api/clients')).status).toBe(200);
    expect(await call(secret, 'POST', '/api/clients', newClient)).toMatchObject({
      status: 403,
      body: { error: 'Your role may read but not change anything' },
    });
    expect((await call(secret, 'GET', `/api/clients/${prod.id}/password`)).status).toBe(403);
  });

  it("an editor's write token writes, without the CSRF check a cookie gets", async () => {
    const { secret } = await createToken(t.staff.editor, { scope: 'write' });
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const made = await call(secret, 'POST', '/api/clients', newClient, crossSite);
    expect(made.status).toBe(201);
    const withCookie = await t.staff.editor.request('POST', '/api/clients', newClient, crossSite);
    expect(withCookie.status).toBe(403);
  });

  it('never reaches admin routes nor the token and session routes', async () => {
    const { secret } = await createToken(t.staff.admin, { scope: 'write' });
    expect((await call(secret, 'GET', '/api/people')).status).toBe(403);
    expect((await call(secret, 'GET', '/api/audit')).status).toBe(403);
    const sessionOnly = {
      status: 403,
      body: { error: expect.stringMatching(/^API tokens cannot/) },
    };
    expect(await call(secret, 'GET', '/api/me/tokens')).toMatchObject(sessionOnly);
    expect(
      await call(secret, 'POST', '/api/me/tokens', {
        name: 'x',
        scope: 'write',
        expiresInDays: null,
      }),
    ).toMatchObject(sessionOnly);
    expect(await call(secret, 'GET', '/api/me/sessions')).toMatchObject(sessionOnly);
    // Their own account is theirs to read.
    expect(await call(secret, 'GET', '/api/me')).toMatchObject({ status: 200 });
  });
});

describe('refusals', () => {
  it('a revoked token is 401, saying so without the token', async () => {
    const { token, secret } = await createToken(t.staff.editor);
    expect((await call(secret, 'GET', '/api/clients')).status).toBe(200);
    await t.staff.editor.json('DELETE', `/api/me/tokens/${token.id}`);
    const refused = await call(secret, 'GET', '/api/clients');
    expect(refused).toMatchObject({
      status: 401,
      body: { error: 'This API token is not valid: it was revoked, or never existed' },
    });
    expect(JSON.stringify(refused.body)).not.toContain(secret.slice(3));
  });

  it('an expired token is 401', async () => {
    const { token, secret } = await createToken(t.staff.editor);
    await t.server.app.parts.db.kysely
      .updateTable('apiToken')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token.id)
      .execute();
    expect(await call(secret, 'GET', '/api/clients')).toMatchObject({
      status: 401,
      body: { error: 'This API token has expired: create a new one in Settings' },
    });
  });

  it("follows the owner's account at once: disabled, and tags narrowed", async () => {
    const { secret } = await createToken(t.staff.limited, { scope: 'write' });
    const ids = async () =>
      ((await call(secret, 'GET', '/api/clients')).body as ClientList).clients.map((c) => c.id);
    expect(await ids()).toEqual(expect.arrayContaining([prod.id, staging.id]));
    await setAccess(t.server, t.staff.limited, { tags: ['staging'] });
    const narrowed = await ids();
    expect(narrowed).toContain(staging.id);
    expect(narrowed).not.toContain(prod.id);
    expect((await call(secret, 'GET', `/api/clients/${prod.id}`)).status).toBe(404);

    const limitedId = await idOf(t.staff.limited);
    await t.server.app.parts.db.kysely
      .updateTable('user')
      .set({ disabled: t.server.app.parts.db.dialect === 'postgres' ? true : 1 })
      .where('id', '=', limitedId)
      .execute();
    expect(await call(secret, 'GET', '/api/clients')).toMatchObject({
      status: 401,
      body: { error: 'The owner of this API token is disabled' },
    });
  });

  it('with a bearer header the cookies are ignored: a bad token is 401 beside a good cookie', async () => {
    for (const header of ['Bearer cm_not-a-real-token', 'Bearer nonsense', 'Bearer ']) {
      const answer = await t.staff.editor.request('GET', '/api/clients', undefined, {
        authorization: header,
      });
      expect(answer.status, header).toBe(401);
    }
    // Without the header the same cookie works.
    expect((await t.staff.editor.request('GET', '/api/clients')).status).toBe(200);
  });

  it('limits each token to API_TOKEN_RATE_LIMIT requests a minute', async () => {
    const { secret } = await createToken(t.staff.editor);
    const other = await createToken(t.staff.editor);
    for (let i = 0; i < RATE_LIMIT; i++) {
      expect((await call(secret, 'GET', '/api/me')).status).toBe(200);
    }
    const limited = await call(secret, 'GET', '/api/me');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Per token: another of the same person's still works.
    expect((await call(other.secret, 'GET', '/api/me')).status).toBe(200);
  });
});

describe('the live stream', () => {
  it("streams what the owner may see but an admin's audit trail, and ends when revoked", async () => {
    const { token, secret } = await createToken(t.staff.admin, { scope: 'read' });
    const abort = new AbortController();
    const response = await fetch(`${t.server.url}/api/events`, {
      headers: { authorization: `Bearer ${secret}`, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const stream = new SseReader(response, abort);
    try {
      await stream.until('stream.ready');
      // A person.* event (admins only) and then a client's: the token gets the client's only.
      await createToken(t.staff.admin);
      const client = await t.staff.admin.json<Client>('POST', '/api/clients', { name: 'Streamed' });
      const next = await stream.next();
      expect(next.event).toBe('client.created');
      expect(JSON.parse(next.data)).toMatchObject({ clientId: client.body.id });

      await t.staff.admin.json('DELETE', `/api/me/tokens/${token.id}`);
      // The stream access sweep ends it within its interval.
      await expect.poll(() => stream.ended, { timeout: 10_000 }).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe('no token where it does not belong', () => {
  it('never writes a token to the log or the event log', async () => {
    // Made at the end of the file: every token above has been created and used by now.
    expect(made.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(0);
    const log = logLines.join('\n');
    const events = JSON.stringify(
      await t.server.app.parts.db.kysely.selectFrom('event').selectAll().execute(),
    );
    const lists = JSON.stringify(
      await Promise.all(
        Object.values(t.staff).map((session) => session.json('GET', '/api/me/tokens')),
      ),
    );
    for (const secret of made) {
      const body = secret.slice(3);
      const hash = hashApiToken(secret);
      expect(log.includes(body), 'a token in the log').toBe(false);
      expect(log.includes(hash), "a token's hash in the log").toBe(false);
      expect(events.includes(body), 'a token in the events').toBe(false);
      expect(events.includes(hash), "a token's hash in the events").toBe(false);
      expect(lists.includes(body) || lists.includes(hash), 'a token in a list').toBe(false);
    }
  });
});
