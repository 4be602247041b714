import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { SecretBox } from '#server/secrets.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { addServerRow } from '#server/testing/server-records.ts';
import { holdRow, lockWaiters } from '#server/testing/held-rows.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { ClientRepository } from '#server/features/clients/client-repository.ts';
import { ServerWrites } from './server-writes.ts';
import { CredentialRepository } from '#server/features/credentials/credential-repository.ts';
import { materialOf } from '#server/features/credentials/credential-material.ts';
import { IssueWrites } from '#server/features/issues/issue-writes.ts';

/**
 * Server writes on PostgreSQL, where transactions run side by side: each finds the server's
 * client, then waits for that client's row lock. What it read before the lock may be gone.
 */

const actor = { id: 'races-person', name: 'person@example.test' };
let db: Db;
let close: () => Promise<void>;
const box = new SecretBox(randomBytes(32).toString('hex'));

beforeAll(async () => {
  ({ db, close } = await openTestDatabase());
  await db.kysely
    .insertInto('user')
    .values(
      verifiedUserRow(db.dialect, actor.id, new Date().toISOString(), {
        name: 'Person',
        email: actor.name,
      }),
    )
    .execute();
});
afterAll(async () => close?.());

/** A client with its primary server, made as the client form makes one. */
async function newClient(name: string) {
  const clients = new ClientRepository(db, box, () => {});
  return clients.create(
    {
      name,
      code: '',
      description: '',
      tags: [],
      domains: [],
      server: { host: 'main.example', port: 22, username: 'deploy', private: true, uiDir: '' },
    },
    actor,
  );
}

describe('making a server primary while it is deleted', () => {
  it('refuses, and leaves the client on a server it has', async () => {
    const clients = new ClientRepository(
      db,
      new SecretBox(randomBytes(32).toString('hex')),
      () => {},
    );
    const client = await clients.create(
      {
        name: 'Raced',
        code: 'RCD',
        description: '',
        tags: [],
        domains: [],
        server: { host: 'main.example', port: 22, username: 'deploy', private: true, uiDir: '' },
      },
      actor,
    );
    const primaryOf = async () =>
      (
        await db.kysely
          .selectFrom('client')
          .select('primaryServerId')
          .where('id', '=', client.id)
          .executeTakeFirstOrThrow()
      ).primaryServerId;
    const main = await primaryOf();
    const second = await addServerRow(db, client.id, { label: 's1', host: 's1.example' }, actor);
    const writes = new ServerWrites(db, () => {});

    // A colleague's delete of the second server holds the client's lock; the make-primary has
    // found the server's client and waits for that lock.
    const colleague = await holdRow(db.kysely, 'client', client.id, async (trx) => {
      await trx.deleteFrom('server').where('id', '=', second).execute();
    });
    const making = writes.makePrimary(second, actor);
    await expect.poll(() => lockWaiters(db.kysely), { timeout: 10_000 }).toBe(1);
    colleague.release();
    await colleague.committed;

    expect(await making).toEqual({ status: 'not_found' });
    expect(await primaryOf()).toBe(main);
  });
});

describe('a write naming a row a colleague deletes meanwhile', () => {
  it('refuses a server given a credential deleted meanwhile, naming the field', async () => {
    const client = await newClient('Credential Raced');
    const vault = new CredentialRepository(db, box, () => {});
    const credential = await vault.create(
      { name: 'Soon gone', kind: 'token' },
      await materialOf('token', { secret: 'tok-soon-gone' }, 'Soon gone'),
      actor,
    );
    const colleague = await holdRow(db.kysely, 'credential', credential.id, async (trx) => {
      await trx.deleteFrom('credential').where('id', '=', credential.id).execute();
    });
    const saving = new ServerWrites(db, () => {}).create(
      {
        clientId: client.id,
        label: 'second',
        host: 'second.example',
        port: 22,
        username: 'deploy',
        uiDir: '',
        private: true,
        credentialId: credential.id,
      },
      actor,
    );
    await expect.poll(() => lockWaiters(db.kysely), { timeout: 10_000 }).toBe(1);
    colleague.release();
    await colleague.committed;
    expect(await saving).toMatchObject({ status: 'refused', code: 400, field: 'credentialId' });
  });

  it('refuses an issue about a server deleted meanwhile, naming the field', async () => {
    const client = await newClient('Issue Raced');
    const serverId = await addServerRow(db, client.id, { label: 's1', host: 's1.example' }, actor);
    const colleague = await holdRow(db.kysely, 'server', serverId, async (trx) => {
      await trx.deleteFrom('server').where('id', '=', serverId).execute();
    });
    const opening = new IssueWrites(db, () => {}).create(
      {
        clientId: client.id,
        serverId,
        appId: null,
        assigneeId: null,
        kind: 'note',
        title: 'About a server',
        text: '',
      },
      actor,
    );
    await expect.poll(() => lockWaiters(db.kysely), { timeout: 10_000 }).toBe(1);
    colleague.release();
    await colleague.committed;
    expect(await opening).toMatchObject({ status: 'refused', code: 400, field: 'serverId' });
  });
});
