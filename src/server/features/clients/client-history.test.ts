import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { clientHistorySchema, type ClientHistory } from '#shared/events.ts';
import {
  Session,
  signUpVerified,
  uniqueEmail,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const ALICE = uniqueEmail('alice');
const BOB = uniqueEmail('bob');
let server: TestServer;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUpVerified(server, { name: 'Alice', email: ALICE });
  bob = await signUpVerified(server, { name: 'Bob', email: BOB });
});
afterAll(async () => server.close());

const history = async (session: Session, id: string) => {
  const response = await session.request('GET', `/api/clients/${id}/history`);
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as ClientHistory };
};

it('lists who created, edited (field names only), read the password and duplicated, newest first', async () => {
  const created = await alice.json<Client>('POST', '/api/clients', {
    name: 'Acme',
    server: { password: 'first-secret-value' },
  });
  const id = created.body.id;
  const edited = await bob.json<Client>('PUT', `/api/clients/${id}`, {
    name: 'Acme Ltd',
    tags: 'eu',
    server: { password: 'second-secret-value' },
    version: 1,
  });
  expect(edited.status).toBe(200);
  expect((await alice.json('GET', `/api/clients/${id}/password`)).status).toBe(200);
  const copy = await bob.json<Client>('POST', `/api/clients/${id}/duplicate`);

  const { status, text, body } = await history(alice, id);
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

  const copyHistory = await history(alice, copy.body.id);
  expect(copyHistory.body.events).toMatchObject([
    { kind: 'client.duplicated', actor: { name: BOB }, fields: [`from:${id}`] },
  ]);
});

it('keeps the history of a deleted client; an unknown id is a 404', async () => {
  const { body: client } = await alice.json<Client>('POST', '/api/clients', { name: 'Gone' });
  expect((await alice.json('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
  const { status, body } = await history(bob, client.id);
  expect(status).toBe(200);
  expect(body.events.map((e) => e.kind)).toEqual(['client.deleted', 'client.created']);
  const unknown = await alice.json<{ error: string }>('GET', '/api/clients/no-such-id/history');
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toMatch(/No client with that id/);
  expect((await alice.json('GET', '/api/clients/bad%20id/history')).status).toBe(400);
});

it('needs a session', async () => {
  expect((await new Session(server).json('GET', '/api/clients/abc/history')).status).toBe(401);
});
