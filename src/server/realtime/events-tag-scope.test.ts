import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Credential } from '#shared/credentials.ts';
import type { ClientEvent } from '#shared/events.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { copyGivenTags } from '#server/testing/client-copies.ts';
import { setAccess } from '#server/testing/access.ts';
import { openEventStream, type SseReader } from '#server/testing/sse-reader.ts';
import { appendEvent } from './event-log.ts';

// The live stream by person: `limited` (tag 'eu') gets only events about 'eu' clients (live
// and in replay), the audit trail of people reaches only administrators.
const t = serveThisFile({
  staff: {
    admin: { name: 'Admin', role: 'admin' },
    editor: { name: 'Editor', role: 'editor' },
    limited: { name: 'Limited', role: 'editor', tags: ['eu'] },
    mover: { name: 'Mover', role: 'editor', tags: ['eu'] },
    narrowed: { name: 'Narrowed', role: 'editor', tags: ['eu'] },
  },
});

async function create(name: string, tags: string[]): Promise<Client> {
  return (await t.staff.editor.json<Client>('POST', '/api/clients', { name, tags })).body;
}

/** The stream, read up to its `stream.ready`; with the sequence number it is ready at. */
async function open(cookie: string, lastEventId?: string): Promise<[SseReader, number]> {
  const stream = await openEventStream(t.server.url, cookie, lastEventId);
  const ready = await stream.until('stream.ready');
  return [stream, (JSON.parse(ready.at(-1)!.data) as { seq: number }).seq];
}

const eventOf = (data: string) => JSON.parse(data) as ClientEvent;

describe('access by tag on the live stream', () => {
  it('sends a limited person only their clients’ events, live and in replay', async () => {
    const [stream, head] = await open(t.staff.limited.cookieHeader);
    const [everything] = await open(t.staff.editor.cookieHeader);

    const us = await create('Live Houston', ['us']);
    const eu = await create('Live Vienna', ['eu']);
    // A credential only a 'us' server uses, and writes about both clients.
    const key = (
      await t.staff.editor.json<Credential>('POST', '/api/credentials', {
        name: 'Houston token',
        kind: 'token',
        secret: 'secret',
      })
    ).body;
    const created = await stream.next();
    expect(created.event).toBe('client.created');
    expect(eventOf(created.data).clientId).toBe(eu.id);
    await t.staff.editor.json('POST', '/api/servers', {
      clientId: us.id,
      label: 'deploy',
      host: 'houston.example.test',
      credentialId: key.id,
    });
    await t.staff.editor.json('PUT', `/api/credentials/${key.id}`, { name: 'Renamed', version: 1 });
    await t.staff.editor.json('PUT', `/api/clients/${us.id}`, {
      name: 'Houston 2',
      tags: ['us'],
      version: 1,
    });
    await t.staff.editor.json('PUT', `/api/clients/${eu.id}`, {
      name: 'Vienna 2',
      tags: ['eu'],
      version: 1,
    });

    const updated = await stream.next();
    expect(updated.event).toBe('client.updated');
    expect(eventOf(updated.data).clientId).toBe(eu.id);
    // The update of the 'eu' client came last: everything before it was read, none of it theirs.
    expect(stream.raw).not.toContain(us.id);
    expect(stream.raw).not.toContain('credential.created');
    expect(stream.raw).not.toContain('credential.updated');
    expect(stream.raw).not.toContain('server.created');

    // The editor got every one of them, in order.
    const all = (await everything.until('client.updated')).concat(
      await everything.until('client.updated'),
    );
    expect(all.map((m) => m.event)).toEqual([
      'client.created',
      'client.created',
      'credential.created',
      'server.created',
      'credential.updated',
      'client.updated',
      'client.updated',
    ]);

    // Resuming from before them replays the same, as of now: the credential is a 'us' server's
    // by now, so its creation is no longer theirs either.
    const [replay] = await open(t.staff.limited.cookieHeader, String(head));
    expect(replay.messages.map((m) => [m.event, eventOf(m.data).clientId])).toEqual([
      ['client.created', eu.id],
      ['client.updated', eu.id],
      ['stream.ready', undefined],
    ]);
    expect(replay.raw).not.toContain(us.id);
    expect(replay.raw).not.toContain(key.id);
    for (const s of [stream, everything, replay]) s.close();
  });

  it('names no original of a copy on the stream, in replay after the copy moved to them', async () => {
    const [, head] = await open(t.staff.limited.cookieHeader);
    const original = await create('Live Original', ['us']);
    const copy = await copyGivenTags(t.staff.editor, original.id, ['eu']);
    // Back from before the copy: its events are theirs now, by its tags as they are.
    const [replay] = await open(t.staff.limited.cookieHeader, String(head));
    expect(replay.raw).toContain(copy.id);
    expect(replay.raw).toContain('client.duplicated');
    expect(replay.raw).not.toContain(original.id);
  });

  it('tells them to reload when a client leaves their tags, and does not replay it', async () => {
    const [stream, head] = await open(t.staff.limited.cookieHeader);
    const moving = await create('Live Leaving', ['eu']);
    expect(eventOf((await stream.next()).data).clientId).toBe(moving.id);
    await t.staff.editor.json('PUT', `/api/clients/${moving.id}`, {
      name: 'Live Leaving',
      tags: ['us'],
      version: 1,
    });
    // It left their screens: a reload signal that names nothing stands in for the event.
    const reload = await stream.next();
    expect(reload.event).toBe('stream.reset');
    expect(reload.data).toBe('{}');
    const staying = await create('Live Staying', ['eu']);
    expect(eventOf((await stream.next()).data).clientId).toBe(staying.id);
    expect(stream.raw.split(moving.id)).toHaveLength(2);
    stream.close();

    // Everything up to its `stream.ready` is the replay: the client that left is not in it.
    const [replay] = await open(t.staff.limited.cookieHeader, String(head));
    expect(replay.messages.map((m) => eventOf(m.data).clientId)).toEqual([staying.id, undefined]);
    expect(replay.raw).not.toContain(moving.id);
    replay.close();
  });

  it('tells nobody of a change of tags among clients they never saw', async () => {
    const [stream] = await open(t.staff.limited.cookieHeader);
    const elsewhere = await create('Live Elsewhere', ['us']);
    const too = await create('Live Elsewhere Too', ['us']);
    const retag = (body: object) => t.staff.editor.json('POST', '/api/clients/bulk/tags', body);
    const moved = await t.staff.editor.json('PUT', `/api/clients/${elsewhere.id}`, {
      name: 'Live Elsewhere',
      tags: ['asia'],
      version: 1,
    });
    expect(moved.status).toBe(200);
    expect((await retag({ ids: [elsewhere.id, too.id], add: ['apac'] })).status).toBe(200);

    // Their own client leaving by a bulk change is the first thing they hear of.
    const theirs = await create('Live Bulk Leaving', ['eu']);
    const first = await stream.next();
    expect(first.event).toBe('client.created');
    expect(eventOf(first.data).clientId).toBe(theirs.id);
    expect((await retag({ ids: [theirs.id], remove: ['eu'] })).status).toBe(200);
    expect((await stream.next()).event).toBe('stream.reset');
    expect(stream.raw.match(/stream\.reset/g)).toHaveLength(1);
    expect(stream.raw).not.toContain(elsewhere.id);
    stream.close();
  });

  it('sends the audit trail of people to administrators only', async () => {
    const [admin] = await open(t.staff.admin.cookieHeader);
    const [editor] = await open(t.staff.editor.cookieHeader);
    const db = t.server.app.parts.db;
    await db.kysely.transaction().execute((trx) =>
      appendEvent(trx, db.dialect, {
        kind: 'person.role_changed',
        clientId: null,
        personId: 'somebody',
        actor: { id: null, name: 'test' },
        fields: ['role'],
        at: new Date().toISOString(),
      }),
    );
    const seen = await admin.next();
    expect(seen.event).toBe('person.role_changed');
    // A later write reaches the editor: the person event before it was never sent to them.
    const after = await create('Live after', ['eu']);
    const next = await editor.next();
    expect(eventOf(next.data).clientId).toBe(after.id);
    expect(editor.raw).not.toContain('person.');
    admin.close();
    editor.close();
  });

  it('sends a credential no server uses to its maker and people without a limit only', async () => {
    const [limited] = await open(t.staff.limited.cookieHeader);
    const [narrowed] = await open(t.staff.narrowed.cookieHeader);
    const made = (name: string) =>
      t.staff.limited.json<Credential>('POST', '/api/credentials', {
        name,
        kind: 'token',
        secret: 'secret',
      });
    const theirs = (await made('Limited’s own token')).body;
    const seen = await limited.next();
    expect([seen.event, eventOf(seen.data).credentialId]).toEqual([
      'credential.created',
      theirs.id,
    ]);
    // Another limited person gets the next write of theirs, not the credential before it.
    const after = await create('Live after a token', ['eu']);
    expect(eventOf((await narrowed.next()).data).clientId).toBe(after.id);
    expect(narrowed.raw).not.toContain(theirs.id);
    limited.close();
    narrowed.close();
  });

  it('tells the maker to reload when someone else renames or deletes their unused credential', async () => {
    const [limited] = await open(t.staff.limited.cookieHeader);
    const made = (name: string) =>
      t.staff.limited
        .json<Credential>('POST', '/api/credentials', { name, kind: 'token', secret: 'secret' })
        .then((answer) => answer.body);
    const renamed = await made('Renamed by an administrator');
    expect(eventOf((await limited.next()).data).credentialId).toBe(renamed.id);
    const rename = await t.staff.admin.json('PUT', `/api/credentials/${renamed.id}`, {
      name: 'Taken over',
      version: renamed.version,
    });
    expect(rename.status).toBe(200);
    // No longer theirs alone, it leaves their screens: a reload signal that names nothing.
    const afterRename = await limited.next();
    expect([afterRename.event, afterRename.data]).toEqual(['stream.reset', '{}']);

    const deleted = await made('Deleted by an administrator');
    expect(eventOf((await limited.next()).data).credentialId).toBe(deleted.id);
    const remove = await t.staff.admin.request('DELETE', `/api/credentials/${deleted.id}`);
    expect(remove.status).toBe(204);
    const afterDelete = await limited.next();
    expect([afterDelete.event, afterDelete.data]).toEqual(['stream.reset', '{}']);
    expect(limited.raw).not.toContain('Taken over');
    limited.close();
  });

  it('ends a stream when its person’s tags change, so it reopens with the new ones', async () => {
    const [stream] = await open(t.staff.mover.cookieHeader);
    await setAccess(t.server, t.staff.mover, { tags: ['us'] });
    await expect(stream.next(10_000)).rejects.toThrow('stream ended');
  });

  it('ends it at the change itself: no later event reaches it with the old access', async () => {
    const graz = await create('Live Graz', ['eu']);
    const [stream] = await open(t.staff.narrowed.cookieHeader);
    const me = await t.staff.narrowed.json<{ id: string }>('GET', '/api/me');
    const narrowed = await t.staff.admin.json('PATCH', `/api/people/${me.body.id}`, {
      tags: ['us'],
    });
    expect(narrowed.status).toBe(200);
    // Written right after: the person can no longer read this client, so their stream must not
    // carry it, whenever the periodic check of open streams (stream-access.ts) would come.
    const updated = await t.staff.editor.json('PUT', `/api/clients/${graz.id}`, {
      name: 'Graz 2',
      tags: ['eu'],
      version: 1,
    });
    expect(updated.status).toBe(200);
    await expect(stream.next(10_000)).rejects.toThrow('stream ended');
    expect(stream.raw).not.toContain(graz.id);
  });
});
