import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { BULK_MAX_IDS, type BulkResult } from '#shared/client-bulk.ts';
import type { ClientExport } from '#shared/client-transfer.ts';
import type { ClientHistory } from '#shared/events.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const ALICE = uniqueEmail('alice');
const BOB = uniqueEmail('bob');
const t = serveThisFile({
  staff: { alice: { name: 'Alice', email: ALICE }, bob: { name: 'Bob', email: BOB } },
});

let made = 0;
/** New clients of this test's own, each with a password (the events must never carry it). */
async function makeClients(tagLists: (string[] | string)[]): Promise<Client[]> {
  const clients: Client[] = [];
  for (const tags of tagLists) {
    made += 1;
    const { status, body } = await t.staff.alice.json<Client>('POST', '/api/clients', {
      name: `Bulk ${made}`,
      code: `BK${made}`,
      tags,
      server: { host: `bulk-${made}.example`, password: `bulk-secret-${made}` },
    });
    expect(status).toBe(201);
    clients.push(body);
  }
  return clients;
}

const db = () => t.server.app.parts.db.kysely;

/** The newest event's number: what a test wrote is what comes after it. */
async function head(): Promise<number> {
  const row = await db()
    .selectFrom('event')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The events after `seq`, raw from the table, oldest first. */
function eventsAfter(seq: number) {
  return db().selectFrom('event').selectAll().where('seq', '>', seq).orderBy('seq').execute();
}

/** What the database holds of these clients: every column, and whether each is deleted. */
async function snapshot(ids: readonly string[]) {
  const rows = await db().selectFrom('client').selectAll().where('id', 'in', ids).execute();
  const deleted = await db()
    .selectFrom('deletedClient')
    .select(['id', 'version'])
    .where('id', 'in', ids)
    .execute();
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  return {
    rows: rows.sort(byId).map((row) => ({
      ...row,
      createdAt: String(row.createdAt),
      updatedAt: String(row.updatedAt),
    })),
    deleted: deleted.sort(byId),
  };
}

function bulk<T = BulkResult>(path: string, body: unknown, session = t.staff.alice) {
  return session.json<T>('POST', `/api/clients/bulk/${path}`, body);
}

const ids = (clients: readonly Client[]) => clients.map((c) => c.id);

describe('bulk tags', () => {
  it('adds a tag after each client’s own, with one event per changed client and none for the rest', async () => {
    const [first, second, has] = await makeClients([['eu-west-1'], [], ['db', 'web']]);
    const seq = await head();
    const { status, body } = await bulk('tags', {
      ids: ids([first!, second!, has!]),
      add: ['web'],
    });
    expect(status).toBe(200);
    expect(body.changed.sort()).toEqual([first!.id, second!.id].sort());

    const after = async (client: Client) =>
      (await t.staff.bob.json<Client>('GET', `/api/clients/${client.id}`)).body;
    // The first tag (the deploy server) stays first; the unchanged client keeps its version.
    expect(await after(first!)).toMatchObject({
      tags: ['eu-west-1', 'web'],
      version: 2,
      updatedBy: ALICE,
    });
    expect(await after(second!)).toMatchObject({ tags: ['web'], version: 2, updatedBy: ALICE });
    expect(await after(has!)).toMatchObject({ tags: ['db', 'web'], version: 1 });

    const events = await eventsAfter(seq);
    expect(
      events.map((e) => [e.kind, e.clientId, e.actorName, JSON.parse(e.fields)]).sort(),
    ).toEqual(
      [
        ['client.updated', first!.id, ALICE, ['tags']],
        ['client.updated', second!.id, ALICE, ['tags']],
      ].sort(),
    );
  });

  it('adds several tags, as text or a list, and removes them again', async () => {
    const clients = await makeClients([['a'], ['b', 'x'], ['c']]);
    const seq = await head();
    const added = await bulk('tags', { ids: ids(clients), add: 'x, y' });
    expect(added.status).toBe(200);
    expect(added.body.changed).toHaveLength(3);
    const tagsOf = async () =>
      Promise.all(
        clients.map(
          async (c) => (await t.staff.alice.json<Client>('GET', `/api/clients/${c.id}`)).body.tags,
        ),
      );
    expect(await tagsOf()).toEqual([
      ['a', 'x', 'y'],
      ['b', 'x', 'y'],
      ['c', 'x', 'y'],
    ]);
    const removed = await bulk('tags', { ids: ids(clients), remove: ['x', 'y', 'absent'] });
    expect(removed.body.changed).toHaveLength(3);
    expect(await tagsOf()).toEqual([['a'], ['b'], ['c']]);
    // Removing what none of them has writes nothing.
    const again = await bulk('tags', { ids: ids(clients), remove: ['x'] });
    expect(again.body.changed).toEqual([]);

    const events = await eventsAfter(seq);
    expect(events).toHaveLength(6);
    for (const event of events) {
      expect(event).toMatchObject({ kind: 'client.updated', actorName: ALICE });
      expect(JSON.parse(event.fields)).toEqual(['tags']);
    }
    const versions = await Promise.all(
      clients.map(
        async (c) => (await t.staff.alice.json<Client>('GET', `/api/clients/${c.id}`)).body.version,
      ),
    );
    expect(versions).toEqual([3, 3, 3]);
  });

  it('writes nothing when one id is missing, and names it', async () => {
    const clients = await makeClients([[], ['t']]);
    const before = await snapshot(ids(clients));
    const seq = await head();
    const { status, body } = await bulk<{ error: string }>('tags', {
      ids: [...ids(clients), 'missingClientId1'],
      add: ['never'],
    });
    expect(status).toBe(404);
    expect(body.error).toBe(
      '1 of the 3 clients were not found (deleted meanwhile?): missingClientId1. No tags were changed.',
    );
    expect(await snapshot(ids(clients))).toEqual(before);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it.each([
    ['a tag too long', { add: ['x'.repeat(101)] }, 'add'],
    ['a hidden character', { add: ['ok', 'a\u202Eb'] }, 'add'],
    ['no tag', { add: [' , '] }, 'add'],
    ['neither add nor remove', {}, 'add'],
    ['both add and remove', { add: ['a'], remove: ['b'] }, 'remove'],
    ['a bad remove', { remove: 5 }, 'remove'],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_what, change, field) => {
    const clients = await makeClients([['k']]);
    const before = await snapshot(ids(clients));
    const seq = await head();
    const { status, body } = await bulk<{ error: string; fields: Record<string, string> }>('tags', {
      ids: ids(clients),
      ...change,
    });
    expect(status).toBe(400);
    // The field, or the bad entry in it (`add.0`).
    expect(Object.keys(body.fields)).toEqual([expect.stringMatching(new RegExp(`^${field}\\b`))]);
    expect(body.error).toMatch(new RegExp(`^Invalid body: ${field}\\b`));
    expect(await snapshot(ids(clients))).toEqual(before);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('refuses an add that would give a client more than 50 tags', async () => {
    const full = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const clients = await makeClients([full, []]);
    const before = await snapshot(ids(clients));
    const seq = await head();
    const { status, body } = await bulk<{ error: string; fields: Record<string, string> }>('tags', {
      ids: ids(clients),
      add: ['one-more'],
    });
    expect(status).toBe(400);
    // Named as the person knows it, not by its id.
    expect(body.fields.add).toBe(
      `1 of the 2 clients would have more than 50 tags: ${clients[0]!.name} (${clients[0]!.code})`,
    );
    expect(await snapshot(ids(clients))).toEqual(before);
    expect(await eventsAfter(seq)).toEqual([]);
  });
});

describe('bulk ids', () => {
  it.each([
    ['no ids', [], 'Select at least one client'],
    ['an id twice', ['sameId', 'sameId'], 'Each client may be named only once'],
    ['a bad id', ['bad id'], 'Must be a client id'],
    [
      'too many',
      Array.from({ length: BULK_MAX_IDS + 1 }, (_, i) => `c${i}`),
      'At most 10,000 clients at once',
    ],
  ])('refuses %s with a 400 naming ids', async (_what, list, message) => {
    for (const path of ['tags', 'delete', 'restore']) {
      const { status, body } = await bulk<{ fields: Record<string, string> }>(path, {
        ids: list,
        add: ['x'],
      });
      expect(status, path).toBe(400);
      const [key, text] = Object.entries(body.fields)[0]!;
      expect(key, path).toMatch(/^ids/);
      expect(text, path).toBe(message);
    }
  });
});

describe('bulk delete and restore', () => {
  it('deletes with one event each, and one restore brings them all back with their history', async () => {
    const clients = await makeClients([['a'], ['b'], ['c']]);
    const kept = await snapshot(ids(clients));
    const seq = await head();
    const deleted = await bulk('delete', { ids: ids(clients) }, t.staff.bob);
    expect(deleted.status).toBe(200);
    expect(deleted.body.changed).toEqual(ids(clients));
    for (const client of clients) {
      expect((await t.staff.alice.json('GET', `/api/clients/${client.id}`)).status).toBe(404);
    }
    const list = (await t.staff.alice.json<{ clients: Client[] }>('GET', '/api/clients')).body;
    expect(list.clients.filter((c) => ids(clients).includes(c.id))).toEqual([]);

    const restored = await bulk('restore', { ids: ids(clients) });
    expect(restored.status).toBe(200);
    expect(restored.body.changed).toEqual(ids(clients));
    // The same rows: id, version, fields, the password still sealed as it was.
    expect((await snapshot(ids(clients))).rows).toEqual(kept.rows);
    expect((await snapshot(ids(clients))).deleted).toEqual([]);
    const password = await t.staff.alice.json<{ password: string }>(
      'GET',
      `/api/clients/${clients[0]!.id}/password`,
    );
    expect(password.body.password).toMatch(/^bulk-secret-/);

    const history = await t.staff.alice.json<ClientHistory>(
      'GET',
      `/api/clients/${clients[1]!.id}/history`,
    );
    expect(history.body.events.map((e) => [e.kind, e.actor.name])).toEqual([
      ['client.restored', ALICE],
      ['client.deleted', BOB],
      ['client.created', ALICE],
    ]);
    const events = await eventsAfter(seq);
    expect(
      events.filter((e) => e.kind !== 'client.password_read').map((e) => [e.kind, e.clientId]),
    ).toEqual([
      ...clients.map((c) => ['client.deleted', c.id]),
      ...clients.map((c) => ['client.restored', c.id]),
    ]);
  });

  it('a delete with a missing id deletes nothing', async () => {
    const clients = await makeClients([[], []]);
    const before = await snapshot(ids(clients));
    const seq = await head();
    const { status, body } = await bulk<{ error: string }>('delete', {
      ids: ['goneClientId0001', ...ids(clients), 'goneClientId0002'],
    });
    expect(status).toBe(404);
    expect(body.error).toBe(
      '2 of the 4 clients were not found (deleted meanwhile?): goneClientId0001, goneClientId0002. Nothing was deleted.',
    );
    expect(await snapshot(ids(clients))).toEqual(before);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('a restore restores all or nothing: 409 for one not deleted, 404 for one unknown', async () => {
    const clients = await makeClients([[], [], []]);
    await bulk('delete', { ids: ids(clients.slice(0, 2)) });
    const before = await snapshot(ids(clients));
    const seq = await head();
    const notDeleted = await bulk<{ error: string }>('restore', { ids: ids(clients) });
    expect(notDeleted.status).toBe(409);
    expect(notDeleted.body.error).toBe(
      `1 of the 3 clients are not deleted (restored already?): ${clients[2]!.id}. Nothing was restored.`,
    );
    const unknown = await bulk<{ error: string }>('restore', {
      ids: [...ids(clients.slice(0, 2)), 'neverExisted0001'],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/neverExisted0001\. Nothing was restored\.$/);
    expect(await snapshot(ids(clients))).toEqual(before);
    expect(await eventsAfter(seq)).toEqual([]);
    // Then the right ones: restored once; a second Undo is a 409.
    expect((await bulk('restore', { ids: ids(clients.slice(0, 2)) })).status).toBe(200);
    expect((await bulk('restore', { ids: ids(clients.slice(0, 2)) })).status).toBe(409);
  });
});

describe('export of the selected clients', () => {
  function exportSelected(body: unknown) {
    return t.staff.alice.request('POST', '/api/clients/export', body);
  }

  it('holds exactly those clients, without passwords and without an event', async () => {
    const clients = await makeClients([['x'], ['y'], ['z']]);
    const seq = await head();
    const response = await exportSelected({ ids: [clients[2]!.id, clients[0]!.id] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="clients-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const file = (await response.json()) as ClientExport;
    expect(file).toMatchObject({ format: 'clients-manager-export', includesSecrets: false });
    // In the list's order, as the whole export is.
    expect(file.clients.map((c) => c.id)).toEqual([clients[0]!.id, clients[2]!.id]);
    expect(JSON.stringify(file)).not.toMatch(/bulk-secret-/);
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('with secrets, puts their passwords in and records a read for each of them only', async () => {
    const [withPassword, other] = await makeClients([[], []]);
    const seq = await head();
    const response = await exportSelected({ ids: [withPassword!.id], secrets: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/-with-passwords\.json"$/);
    const file = (await response.json()) as ClientExport;
    expect(file.includesSecrets).toBe(true);
    expect(file.clients).toHaveLength(1);
    expect(file.clients[0]!.server.password).toMatch(/^bulk-secret-/);
    const events = await eventsAfter(seq);
    expect(events.map((e) => [e.kind, e.clientId, e.actorName, JSON.parse(e.fields)])).toEqual([
      ['client.password_read', withPassword!.id, ALICE, ['export']],
    ]);
    // The other client has a password too: it was not read.
    expect(events.some((e) => e.clientId === other!.id)).toBe(false);
  });

  it('with a missing id exports nothing and records nothing', async () => {
    const clients = await makeClients([[]]);
    const seq = await head();
    const response = await exportSelected({
      ids: [...ids(clients), 'missingExport001'],
      secrets: true,
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe(
      '1 of the 2 clients were not found (deleted meanwhile?): missingExport001. Nothing was exported.',
    );
    expect(await eventsAfter(seq)).toEqual([]);
  });

  it('refuses a bad body naming the field', async () => {
    const response = await exportSelected({ ids: [], secrets: 'yes' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fields: Record<string, string> };
    expect(Object.keys(body.fields).sort()).toEqual(['ids', 'secrets']);
  });
});

describe('guarded as every write', () => {
  const routes = [
    ['/api/clients/bulk/tags', { add: ['csrf'] }],
    ['/api/clients/bulk/delete', {}],
    ['/api/clients/bulk/restore', {}],
    ['/api/clients/export', {}],
  ] as const;

  it.each(routes)('%s answers 401 without a session', async (path, extra) => {
    const [client] = await makeClients([[]]);
    const response = await new Session(t.server).json<{ error: string }>('POST', path, {
      ids: [client!.id],
      ...extra,
    });
    expect(response).toEqual({ status: 401, body: { error: 'Sign in to continue' } });
  });

  it.each(routes)('%s refuses a cross-site request and writes nothing', async (path, extra) => {
    const clients = await makeClients([['keep']]);
    const before = await snapshot(ids(clients));
    const seq = await head();
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      const response = await t.staff.alice.request(
        'POST',
        path,
        { ids: ids(clients), secrets: path.endsWith('export'), ...extra },
        headers,
      );
      expect(response.status).toBe(403);
    }
    expect(await snapshot(ids(clients))).toEqual(before);
    expect(await eventsAfter(seq)).toEqual([]);
  });
});

describe('events and the live feed', () => {
  it('carry names of fields, never values, and reach other browsers once per client', async () => {
    const clients = await makeClients([['p'], ['q']]);
    const stream = await openEventStream(t.server.url, t.staff.bob.cookieHeader);
    await stream.until('stream.ready');
    const seq = await head();
    await bulk('tags', { ids: ids(clients), add: ['live'] });
    await bulk('delete', { ids: ids(clients) });
    await bulk('restore', { ids: ids(clients) });
    const after = () => stream.messages.filter((m) => Number(m.id) > seq);
    await expect.poll(() => after().length).toBeGreaterThanOrEqual(6);
    const seen = after();
    stream.close();
    expect(
      seen.map((m) => [m.event, (JSON.parse(m.data) as { clientId: string }).clientId]),
    ).toEqual(
      ['client.updated', 'client.deleted', 'client.restored'].flatMap((kind) =>
        ids(clients).map((id) => [kind, id]),
      ),
    );
    const events = await eventsAfter(seq);
    expect(events).toHaveLength(6);
    const text = JSON.stringify(events) + JSON.stringify(seen);
    expect(text).not.toMatch(/bulk-secret-/);
    expect(text).not.toContain('"live"');
  });
});

describe('2,000 clients', () => {
  it('a tag add on all of them writes each once, with one event each', async () => {
    const documents = Array.from({ length: 2000 }, (_, i) => ({
      name: `Many ${i}`,
      code: `M${i}`,
      tags: i % 2 ? ['eu'] : [],
      server: { host: `many-${i}.example`, password: `many-secret-${i}` },
    }));
    const imported = await t.staff.alice.json<{ created: number }>(
      'POST',
      '/api/clients/import',
      documents,
    );
    expect(imported.body.created).toBe(2000);
    const list = (await t.staff.alice.json<{ clients: Client[] }>('GET', '/api/clients')).body;
    const many = list.clients.filter((c) => c.name.startsWith('Many '));
    expect(many).toHaveLength(2000);
    const seq = await head();

    const started = performance.now();
    const { status, body } = await bulk('tags', { ids: ids(many), add: ['bulk-2000'] });
    const took = performance.now() - started;
    expect(status).toBe(200);
    expect(body.changed).toHaveLength(2000);
    // BULK_TIMING=1: how long it took here (a measurement to read, not a limit to pass).
    if (process.env.BULK_TIMING) {
      // eslint-disable-next-line no-console -- asked for explicitly
      console.info(`bulk tag add on 2,000 clients: ${took.toFixed(0)} ms`);
    }

    const after = (await t.staff.alice.json<{ clients: Client[] }>('GET', '/api/clients')).body;
    const byId = new Map(after.clients.map((c) => [c.id, c]));
    for (const client of many) {
      const now = byId.get(client.id)!;
      expect(now.tags).toEqual([...client.tags, 'bulk-2000']);
      expect(now.version).toBe(client.version + 1);
    }
    const events = await eventsAfter(seq);
    expect(events).toHaveLength(2000);
    expect(new Set(events.map((e) => e.clientId)).size).toBe(2000);
    expect(events.every((e) => e.kind === 'client.updated' && e.fields === '["tags"]')).toBe(true);
    // The sequence has no gap.
    expect(events.at(-1)!.seq - events[0]!.seq + 1).toBe(2000);
  });
});
