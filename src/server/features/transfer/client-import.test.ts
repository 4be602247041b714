import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { SecretBox } from '#server/secrets.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { ClientRepository } from '#server/features/clients/client-repository.ts';
import { importClients } from './client-import.ts';

const actor = { id: null, name: 'import test' };

describe('an import wakes the live feed', () => {
  let db: Db;
  let close: () => Promise<void>;
  /** Per wake-up: the clients a query started then, outside the import, sees: what was committed. */
  let seenAtWake: Promise<number>[];
  let clients: ClientRepository;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase());
    clients = new ClientRepository(db, new SecretBox(randomBytes(32).toString('hex')), () => {
      seenAtWake.push(countClients());
    });
  });
  afterAll(async () => close());

  async function countClients(): Promise<number> {
    const row = await db.kysely
      .selectFrom('client')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const file = [{ name: 'One' }, { name: 'Two', server: { port: 'x' } }, { name: 'Three' }];

  it('not for a dry run nor a refused file, once after the commit of an applied one', async () => {
    seenAtWake = [];
    const dry = await importClients(clients, file, { dryRun: true, skipInvalid: true, actor });
    expect(dry.status).toBe('dry_run');
    const refused = await importClients(clients, file, {
      dryRun: false,
      skipInvalid: false,
      actor,
    });
    expect(refused.status).toBe('refused');
    expect(seenAtWake).toHaveLength(0);
    expect(await countClients()).toBe(0);

    const applied = await importClients(clients, file, { dryRun: false, skipInvalid: true, actor });
    expect(applied).toMatchObject({ status: 'applied', report: { created: 2 } });
    expect(seenAtWake).toHaveLength(1);
    expect(await seenAtWake[0]).toBe(2);
  });
});
