import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { STALE_VERSION_CODE } from '#shared/api-error.ts';
import { SHORT_SECRET_MESSAGE } from '#shared/secret-length.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const ALICE = uniqueEmail('alice');
const BOB = uniqueEmail('bob');
const t = serveThisFile({
  staff: { alice: { name: 'Alice', email: ALICE }, bob: { name: 'Bob', email: BOB } },
});

/** Rows in the database under test (SQLite or PostgreSQL), read beside the API. */
async function counts() {
  const db = t.server.app.parts.db.kysely;
  const count = async (table: 'client' | 'event') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { clients: await count('client'), events: await count('event') };
}

describe('without a session', () => {
  const anon = () => new Session(t.server);
  it.each([
    ['GET', '/api/clients'],
    ['POST', '/api/clients'],
    ['GET', '/api/clients/abc'],
    ['PUT', '/api/clients/abc'],
    ['DELETE', '/api/clients/abc'],
    ['POST', '/api/clients/abc/duplicate'],
    ['GET', '/api/clients/abc/password'],
    ['GET', '/api/clients/abc/commands'],
    ['GET', '/api/events'],
    ['GET', '/api/me'],
    ['PUT', '/api/me/access-token'],
    ['GET', '/api/me/sessions'],
    ['POST', '/api/me/sessions/revoke-others'],
  ])('%s %s answers 401 JSON', async (method, url) => {
    const response = await anon().json<{ error: string }>(
      method,
      url,
      method === 'GET' || method === 'DELETE' ? undefined : {},
    );
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('Sign in to continue');
  });

  it('public config and health answer without one', async () => {
    expect((await anon().json('GET', '/api/config')).status).toBe(200);
    expect((await anon().json('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await anon().json('GET', '/readyz')).status).toBe(200);
  });
});

describe('clients', () => {
  it('creates with the defaults of the original: port 22, private, started today', async () => {
    const dayBefore = new Date().toISOString().slice(0, 10);
    const { status, body } = await t.staff.alice.json<Client>('POST', '/api/clients', {
      name: 'Acme',
      code: 'ACM',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: 'Acme',
      code: 'ACM',
      description: '',
      tags: [],
      domains: [],
      server: { port: 22, private: true, host: '', username: '', uiDir: '', hasPassword: false },
      createdBy: ALICE,
      version: 1,
    });
    // Today in UTC, on either side of a midnight the request may have crossed.
    expect([dayBefore, new Date().toISOString().slice(0, 10)]).toContain(body.startDate);
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('stores comma-separated tags as a trimmed list without empty entries', async () => {
    const { body } = await t.staff.alice.json<Client>('POST', '/api/clients', {
      name: 'Tagged',
      tags: ' prod-1 , eu,, ,web ',
    });
    expect(body.tags).toEqual(['prod-1', 'eu', 'web']);
  });

  it('lists, gets, updates and deletes; every write lands in the event log', async () => {
    const start = await counts();
    const created = (
      await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Globex',
        code: 'GLX',
        description: 'Hosting',
        tags: 'prod',
        startDate: '2024-02-29',
        server: {
          host: 'globex.example.com',
          port: 2222,
          username: 'deploy',
          password: 's3cret!',
          uiDir: '/srv/ui',
          private: false,
        },
        domains: ['https://globex.example.com'],
      })
    ).body;
    expect(created.server).toEqual({
      host: 'globex.example.com',
      port: 2222,
      username: 'deploy',
      private: false,
      uiDir: '/srv/ui',
      hasPassword: true,
    });
    expect(JSON.stringify(created)).not.toContain('s3cret!');

    const list = await t.staff.bob.json<{ clients: Client[] }>('GET', '/api/clients');
    expect(list.body.clients.map((c) => c.id)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain('s3cret!');
    expect((await t.staff.bob.json<Client>('GET', `/api/clients/${created.id}`)).body).toEqual(
      created,
    );

    const updated = await t.staff.bob.json<Client>('PUT', `/api/clients/${created.id}`, {
      ...created,
      tags: created.tags,
      name: 'Globex Corp',
      version: created.version,
      server: { ...created.server },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Globex Corp',
      version: 2,
      updatedBy: BOB,
      createdBy: ALICE,
    });
    // The password was omitted, so it is kept.
    expect(updated.body.server.hasPassword).toBe(true);
    // Read before the change, read again after it: the new one, never the kept answer.
    expect((await t.staff.bob.json<Client>('GET', `/api/clients/${created.id}`)).body).toEqual(
      updated.body,
    );
    expect(
      (await t.staff.alice.json<{ password: string }>('GET', `/api/clients/${created.id}/password`))
        .body,
    ).toEqual({ password: 's3cret!' });

    expect((await t.staff.alice.request('DELETE', `/api/clients/${created.id}`)).status).toBe(204);
    expect((await t.staff.alice.json('GET', `/api/clients/${created.id}`)).status).toBe(404);
    expect((await t.staff.alice.json('DELETE', `/api/clients/${created.id}`)).status).toBe(404);
    // created, updated, password_read, deleted
    expect(await counts()).toEqual({ clients: start.clients, events: start.events + 4 });
  });

  it('duplicates with a new id and the name plus " (Clone)", keeping the password', async () => {
    const source = (
      await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Initech',
        code: 'INI',
        server: { password: 'pw-1' },
      })
    ).body;
    const copy = await t.staff.alice.json<Client>('POST', `/api/clients/${source.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(source.id);
    expect(copy.body).toMatchObject({ name: 'Initech (Clone)', code: 'INI', version: 1 });
    expect(copy.body.server.hasPassword).toBe(true);
    expect((await t.staff.alice.json('POST', '/api/clients/nope-nope/duplicate')).status).toBe(404);
  });

  it('keeps a copy of a long name within the limit, so the copy can be saved again', async () => {
    // 200 UTF-16 units, with an emoji (two of them) where the cut for the suffix falls.
    const long = `${'L'.repeat(191)}${'😀'}${'x'.repeat(7)}`;
    const source = await t.staff.alice.json<Client>('POST', '/api/clients', { name: long });
    expect(source.status).toBe(201);
    const copy = await t.staff.alice.json<Client>(
      'POST',
      `/api/clients/${source.body.id}/duplicate`,
    );
    expect(copy.status).toBe(201);
    expect(copy.body.name).toBe(`${'L'.repeat(191)} (Clone)`);
    const saved = await t.staff.alice.json('PUT', `/api/clients/${copy.body.id}`, {
      name: copy.body.name,
      description: 'edited',
      version: copy.body.version,
    });
    expect(saved.status).toBe(200);
  });

  it('refuses a save over a newer version with 409 and changes nothing', async () => {
    const created = (await t.staff.alice.json<Client>('POST', '/api/clients', { name: 'Umbrella' }))
      .body;
    const first = await t.staff.bob.json<Client>('PUT', `/api/clients/${created.id}`, {
      name: 'Umbrella (Bob)',
      version: 1,
    });
    expect(first.status).toBe(200);
    const before = await counts();
    const stale = await t.staff.alice.json<{ error: string; code?: string }>(
      'PUT',
      `/api/clients/${created.id}`,
      {
        name: 'Umbrella (Alice)',
        version: 1,
      },
    );
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain(`changed by ${BOB} after you opened it`);
    expect(stale.body.code).toBe(STALE_VERSION_CODE);
    expect(await counts()).toEqual(before);
    expect((await t.staff.alice.json<Client>('GET', `/api/clients/${created.id}`)).body.name).toBe(
      'Umbrella (Bob)',
    );
  });

  it('of saves on one version at the same time, takes one and refuses the others', async () => {
    const created = (await t.staff.alice.json<Client>('POST', '/api/clients', { name: 'Hooli' }))
      .body;
    const before = await counts();
    const saves = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        (n % 2 === 0 ? t.staff.bob : t.staff.alice).json<Client>(
          'PUT',
          `/api/clients/${created.id}`,
          { name: `Hooli ${n}`, version: created.version },
        ),
      ),
    );
    expect(saves.map((save) => save.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const winner = saves.find((save) => save.status === 200)!.body;
    expect(winner.version).toBe(created.version + 1);
    expect((await t.staff.alice.json<Client>('GET', `/api/clients/${created.id}`)).body).toEqual(
      winner,
    );
    expect(await counts()).toEqual({ ...before, events: before.events + 1 });
  });

  it('answers each write with the client as a read finds it right after', async () => {
    const read = async (id: string) =>
      (await t.staff.bob.json<Client>('GET', `/api/clients/${id}`)).body;
    const plain = await t.staff.alice.json<Client>('POST', '/api/clients', { name: 'Pied Piper' });
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual(await read(plain.body.id));
    const full = await t.staff.alice.json<Client>('POST', '/api/clients', {
      name: 'Raviga',
      code: 'RVG',
      description: 'Funds',
      tags: 'vc, prod',
      startDate: '2023-03-01',
      server: {
        host: 'raviga.example.com',
        port: 2200,
        username: 'ops',
        password: 'pw-1',
        uiDir: '/ui',
        private: false,
      },
      domains: ['https://raviga.example.com'],
    });
    expect(full.body).toEqual(await read(full.body.id));

    // The form's save as its own author, then another person's; neither touches the server.
    const { id, version: _version, createdAt: _at, updatedAt: _up, ...form } = full.body;
    const own = await t.staff.alice.json<Client>('PUT', `/api/clients/${id}`, {
      ...form,
      tags: ['vc'],
      version: 1,
    });
    expect(own.body).toMatchObject({ version: 2, tags: ['vc'], updatedBy: ALICE });
    expect(own.body).toEqual(await read(id));
    const other = await t.staff.bob.json<Client>('PUT', `/api/clients/${id}`, {
      ...form,
      name: 'Raviga Capital',
      startDate: '2023-04-01',
      version: 2,
    });
    expect(other.body).toMatchObject({ updatedBy: BOB, createdBy: ALICE, tags: ['vc', 'prod'] });
    expect(other.body).toEqual(await read(id));
    // A save that changes the server, and one that removes its password.
    const moved = await t.staff.bob.json<Client>('PUT', `/api/clients/${id}`, {
      ...form,
      server: { ...form.server, host: 'moved.example.com', private: true },
      version: 3,
    });
    expect(moved.body.server).toMatchObject({ host: 'moved.example.com', private: true });
    expect(moved.body).toEqual(await read(id));
    const cleared = await t.staff.bob.json<Client>('PUT', `/api/clients/${id}`, {
      ...form,
      server: { ...form.server, password: '' },
      version: 4,
    });
    expect(cleared.body.server.hasPassword).toBe(false);
    expect(cleared.body).toEqual(await read(id));
  });

  it('refuses a typed password too short for run logs to hide, on update as on create', async () => {
    const created = (await t.staff.alice.json<Client>('POST', '/api/clients', { name: 'Short' }))
      .body;
    const refused = await t.staff.alice.json<{ fields: Record<string, string> }>(
      'PUT',
      `/api/clients/${created.id}`,
      { server: { password: 'abc' }, version: 1 },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fields['server.password']).toBe(SHORT_SECRET_MESSAGE);
    const stored = await t.staff.alice.json<Client>('GET', `/api/clients/${created.id}`);
    expect(stored.body).toMatchObject({ version: 1, server: { hasPassword: false } });
  });

  it('removes a password when it is saved as empty', async () => {
    const created = (
      await t.staff.alice.json<Client>('POST', '/api/clients', { server: { password: 'pw-1' } })
    ).body;
    const cleared = await t.staff.alice.json<Client>('PUT', `/api/clients/${created.id}`, {
      server: { password: '' },
      version: 1,
    });
    expect(cleared.body.server.hasPassword).toBe(false);
  });
});

describe('bad input', () => {
  const post = (body: unknown) =>
    t.staff.alice.json<{ error: string; fields?: Record<string, string> }>(
      'POST',
      '/api/clients',
      body,
    );

  it('takes the date of a full timestamp, as an export may hold one', async () => {
    for (const startDate of ['2026-03-05T23:30:00.000Z', '2026-03-05T23:30:00+02:00']) {
      const made = await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Stamped',
        startDate,
      });
      expect(made.status, startDate).toBe(201);
      expect(made.body.startDate, startDate).toBe('2026-03-05');
    }
  });

  it('names the field for wrong types and out-of-range values, and writes nothing', async () => {
    const before = await counts();
    const cases: [unknown, string, RegExp][] = [
      [{ name: 42 }, 'name', /string/i],
      [{ server: { port: 0 } }, 'server.port', /between 1 and 65535/],
      [{ server: { port: 70000 } }, 'server.port', /between 1 and 65535/],
      [{ server: { port: '22' } }, 'server.port', /number/i],
      [{ server: { private: 'yes' } }, 'server.private', /true or false/],
      [{ domains: ['https://ok.example', 'javascript:alert(1)'] }, 'domains.1', /http/],
      [{ domains: ['ftp://files.example'] }, 'domains.0', /http/],
      [{ startDate: 'yesterday' }, 'startDate', /date/],
      // A date with something after it that is not a time is not cut to the date.
      [{ startDate: '2026-01-01garbage' }, 'startDate', /date/],
      [{ startDate: '2026-01-01 not a date at all' }, 'startDate', /date/],
      [{ startDate: '2026-05-05T25:61:99Z' }, 'startDate', /date/],
      [{ server: { host: '-oProxyCommand=evil' } }, 'server.host', /host/],
      [{ name: 'x'.repeat(201) }, 'name', /at most 200/],
      // Shown on one line in lists, history and chat messages: no forged second line.
      [{ name: 'Acme\nadmin deleted client Beta' }, 'name', /control, bidi or zero-width/],
      [{ name: 'Acme\u001b[2J' }, 'name', /control, bidi or zero-width/],
      [{ name: 'Acme \u202eetaviRP' }, 'name', /control, bidi or zero-width/],
      [{ name: 'Ac\u200bme' }, 'name', /control, bidi or zero-width/],
      // The vault's rule: a shorter password could not be hidden in run logs.
      [{ server: { password: 'abc' } }, 'server.password', /^Must be at least 4 characters/],
    ];
    for (const [body, field, message] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.fields?.[field], JSON.stringify(response.body)).toMatch(message);
      expect(response.body.error).toContain(field);
    }
    expect(await counts()).toEqual(before);
  });

  it('answers malformed JSON with 400', async () => {
    const response = await t.staff.alice.request('POST', '/api/clients', '{"name": ', {
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/Malformed JSON/);
  });

  it('answers a body over 1 MB with 413', async () => {
    const response = await post({ description: 'x'.repeat(1024 * 1024 + 10) });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/1 MB/);
  });

  it('answers an unknown or malformed id with 404 or 400', async () => {
    expect((await t.staff.alice.json('GET', '/api/clients/unknownid123')).status).toBe(404);
    expect(
      (await t.staff.alice.json('PUT', '/api/clients/unknownid123', { version: 1 })).status,
    ).toBe(404);
    const bad = await t.staff.alice.json<{ fields: Record<string, string> }>(
      'GET',
      `/api/clients/${encodeURIComponent('../../etc')}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('id');
  });

  it('requires the version on update', async () => {
    const created = (await post({ name: 'Versionless' })).body as unknown as Client;
    const response = await t.staff.alice.json<{ fields: Record<string, string> }>(
      'PUT',
      `/api/clients/${created.id}`,
      { name: 'x' },
    );
    expect(response.status).toBe(400);
    expect(response.body.fields).toHaveProperty('version');
  });

  it('refuses cross-site writes', async () => {
    const response = await t.staff.alice.request(
      'POST',
      '/api/clients',
      { name: 'csrf' },
      { origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
    // Named, because the usual cause is the app opened at another address than PUBLIC_URL.
    expect(await response.json()).toMatchObject({
      error: `Refused: this page was opened at https://evil.example, but Clients Manager answers at ${t.server.url} (PUBLIC_URL). Open ${t.server.url} instead.`,
    });
  });

  it('keeps markup as plain data', async () => {
    const xss = '<img src=x onerror=alert(1)>';
    const { body } = await post({ name: xss, description: xss, tags: xss });
    expect(body).toMatchObject({ name: xss, description: xss });
  });
});

describe('commands', () => {
  it('builds the deploy command from the access token and first tag, shell-quoted', async () => {
    const client = (
      await t.staff.alice.json<Client>('POST', '/api/clients', {
        name: 'Cmd',
        tags: 'x; rm -rf ~, second',
        server: { host: 'h.example', username: 'root', port: 2200 },
      })
    ).body;
    const missing = await t.staff.alice.json<{
      commands: { id: string; command: string | null; missing: string | null }[];
    }>('GET', `/api/clients/${client.id}/commands`);
    expect(missing.body.commands[0]).toMatchObject({ id: 'deploy', command: null });
    expect(missing.body.commands[0]!.missing).toMatch(/access token/);

    expect(
      (await t.staff.alice.json('PUT', '/api/me/access-token', { accessToken: "tok'en-SECRET" }))
        .status,
    ).toBe(200);
    const ready = await t.staff.alice.json<{
      commands: { id: string; command: string; display: string }[];
    }>('GET', `/api/clients/${client.id}/commands`);
    expect(ready.body.commands[0]!.command).toBe(
      `pro-deploy run --token 'tok'\\''en-SECRET' --server 'x; rm -rf ~'`,
    );
    expect(ready.body.commands[0]!.display).not.toContain('SECRET');
    expect(ready.body.commands[1]!.command).toBe('ssh -p 2200 root@h.example');

    const me = await t.staff.alice.json<{ accessToken: { isSet: boolean; masked: string } }>(
      'GET',
      '/api/me',
    );
    expect(me.body.accessToken).toEqual({ isSet: true, masked: '••••••••CRET' });
  });
});
