import { expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import { Session, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/** People are named by email in history and on records: it is what they cannot change. */
const ALICE = uniqueEmail('alice');
const BOB = uniqueEmail('bob');
const t = serveThisFile({
  staff: { alice: { name: 'Alice', email: ALICE }, bob: { name: 'Bob', email: BOB } },
});

it('restores a deleted client with its id, version, sealed password and history', async () => {
  const { body: created } = await t.staff.alice.json<Client>('POST', '/api/clients', {
    name: 'Acme',
    tags: ['eu', 'web'],
    domains: ['https://acme.example'],
    server: { host: 'acme.example', port: 2222, password: 'kept-secret' },
  });
  const { body: edited } = await t.staff.alice.json<Client>('PUT', `/api/clients/${created.id}`, {
    name: 'Acme Ltd',
    tags: ['eu', 'web'],
    domains: ['https://acme.example'],
    server: { host: 'acme.example', port: 2222 },
    version: 1,
  });
  expect((await t.staff.bob.json('DELETE', `/api/clients/${created.id}`)).status).toBe(204);
  expect((await t.staff.alice.json('GET', `/api/clients/${created.id}`)).status).toBe(404);

  const restored = await t.staff.alice.json<Client>('POST', `/api/clients/${created.id}/restore`);
  expect(restored.status).toBe(200);
  expect(restored.body).toEqual(edited);
  expect((await t.staff.alice.json<Client>('GET', `/api/clients/${created.id}`)).body).toEqual(
    edited,
  );
  const password = await t.staff.alice.json<{ password: string }>(
    'GET',
    `/api/clients/${created.id}/password`,
  );
  expect(password.body.password).toBe('kept-secret');

  const history = await t.staff.bob.json<ClientHistory>(
    'GET',
    `/api/clients/${created.id}/history`,
  );
  expect(history.body.events.map((e) => [e.kind, e.actor.name])).toEqual([
    ['client.password_read', ALICE],
    ['client.restored', ALICE],
    ['client.deleted', BOB],
    ['client.updated', ALICE],
    ['client.created', ALICE],
  ]);

  // It edits as before: the version it had is the version it has.
  const next = await t.staff.alice.json<Client>('PUT', `/api/clients/${created.id}`, {
    name: 'Acme again',
    version: edited.version,
  });
  expect(next.status).toBe(200);
});

it('restoring twice is a 409; an unknown id a 404; a bad id a 400', async () => {
  const { body: client } = await t.staff.alice.json<Client>('POST', '/api/clients', {
    name: 'Twice',
  });
  await t.staff.alice.json('DELETE', `/api/clients/${client.id}`);
  expect((await t.staff.alice.json('POST', `/api/clients/${client.id}/restore`)).status).toBe(200);
  const again = await t.staff.alice.json<{ error: string }>(
    'POST',
    `/api/clients/${client.id}/restore`,
  );
  expect(again.status).toBe(409);
  expect(again.body.error).toBe('This client is not deleted: it was restored already');
  const unknown = await t.staff.alice.json<{ error: string }>('POST', '/api/clients/nope/restore');
  expect(unknown.status).toBe(404);
  expect(unknown.body.error).toMatch(/nothing to restore/);
  expect((await t.staff.alice.json('POST', '/api/clients/bad%20id/restore')).status).toBe(400);
  expect(
    (await new Session(t.server).json('POST', `/api/clients/${client.id}/restore`, {})).status,
  ).toBe(401);
});

it('a client deleted again after a restore can be restored again', async () => {
  const { body: client } = await t.staff.alice.json<Client>('POST', '/api/clients', {
    name: 'Again',
  });
  for (let i = 0; i < 2; i += 1) {
    expect((await t.staff.alice.json('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
    expect((await t.staff.alice.json('POST', `/api/clients/${client.id}/restore`)).status).toBe(
      200,
    );
  }
  const db = t.server.app.parts.db.kysely;
  const left = await db
    .selectFrom('deletedClient')
    .select('id')
    .where('id', '=', client.id)
    .execute();
  expect(left).toEqual([]);
});
