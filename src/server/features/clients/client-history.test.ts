import { expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { clientHistorySchema, type ClientHistory } from '#shared/events.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const ALICE = uniqueEmail('alice');
const BOB = uniqueEmail('bob');
const t = serveThisFile({
  staff: { alice: { name: 'Alice', email: ALICE }, bob: { name: 'Bob', email: BOB } },
});

const history = async (session: Session, id: string) => {
  const response = await session.request('GET', `/api/clients/${id}/history`);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as ClientHistory };
};

it('lists who created, edited (field names only), read the password and duplicated, newest first', async () => {
  const created = await t.staff.alice.json<Client>('POST', '/api/clients', {
    name: 'Acme',
    server: { password: 'first-secret-value' },
  });
  const id = created.body.id;
  const edited = await t.staff.bob.json<Client>('PUT', `/api/clients/${id}`, {
    name: 'Acme Ltd',
    tags: 'eu',
    server: { password: 'second-secret-value' },
    version: 1,
  });
  expect(edited.status).toBe(200);
  expect((await t.staff.alice.json('GET', `/api/clients/${id}/password`)).status).toBe(200);
  const copy = await t.staff.bob.json<Client>('POST', `/api/clients/${id}/duplicate`);

  const { status, text, body } = await history(t.staff.alice, id);
  expect(status).toBe(200);
  expect(clientHistorySchema.parse(body)).toEqual(body);
  expect(body.events.map((e) => [e.kind, e.actor.name, e.fields])).toEqual([
    ['client.password_read', ALICE, []],
    ['client.updated', BOB, ['name', 'tags', 'server.password']],
    ['client.created', ALICE, []],
  ]);
  const seqs = body.events.map((e) => e.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  expect(text).not.toContain('secret-value');

  const copyHistory = await history(t.staff.alice, copy.body.id);
  expect(copyHistory.body.events).toMatchObject([
    { kind: 'client.duplicated', actor: { name: BOB }, fields: [`from:${id}`] },
  ]);
});

it('keeps the history of a deleted client; an unknown id is a 404', async () => {
  const { body: client } = await t.staff.alice.json<Client>('POST', '/api/clients', {
    name: 'Gone',
  });
  expect((await t.staff.alice.json('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
  const { status, body } = await history(t.staff.bob, client.id);
  expect(status).toBe(200);
  expect(body.events.map((e) => e.kind)).toEqual(['client.deleted', 'client.created']);
  const unknown = await t.staff.alice.json<{ error: string }>(
    'GET',
    '/api/clients/no-such-id/history',
  );
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toMatch(/No client with that id/);
  expect((await t.staff.alice.json('GET', '/api/clients/bad%20id/history')).status).toBe(400);
});

it('needs a session', async () => {
  expect((await new Session(t.server).json('GET', '/api/clients/abc/history')).status).toBe(401);
});
