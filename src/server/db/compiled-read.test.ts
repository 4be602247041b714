import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import type { Db } from './database.ts';
import { compiledRead } from './compiled-read.ts';
import { joinKey } from './join-key.ts';

describe('a compiled read', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase());
    const at = new Date().toISOString();
    const user = (id: string) => verifiedUserRow(db.dialect, id, at, { name: `Name ${id}` });
    await db.kysely
      .insertInto('user')
      .values([user('u1'), user('u2')])
      .execute();
  });
  afterAll(async () => close());

  const byIdAndName = () =>
    compiledRead((id: string, name: string) =>
      db.kysely
        .selectFrom('user')
        .select(['id', 'email'])
        .where('id', '=', joinKey(id))
        .where('name', '=', name),
    );

  it('answers each run with the rows of its own values, as they are now', async () => {
    const read = byIdAndName();
    expect(await read(db.kysely, 'u1', 'Name u1')).toEqual([
      { id: 'u1', email: 'u1@example.test' },
    ]);
    expect(await read(db.kysely, 'u2', 'Name u2')).toEqual([
      { id: 'u2', email: 'u2@example.test' },
    ]);
    expect(await read(db.kysely, 'u2', 'Name u1')).toEqual([]);
    await db.kysely
      .updateTable('user')
      .set({ email: 'new@example.test' })
      .where('id', '=', 'u1')
      .execute();
    expect(await read(db.kysely, 'u1', 'Name u1')).toEqual([
      { id: 'u1', email: 'new@example.test' },
    ]);
  });

  it('reads inside the transaction it is given', async () => {
    const read = byIdAndName();
    await db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('user').set({ name: 'Renamed' }).where('id', '=', 'u2').execute();
      expect(await read(trx, 'u2', 'Renamed')).toEqual([{ id: 'u2', email: 'u2@example.test' }]);
    });
  });

  it('refuses, when made, a query whose parameters are not its values in order', () => {
    expect(() =>
      compiledRead((id: string) =>
        db.kysely.selectFrom('user').select('id').where('id', '=', id).where('name', '=', 'x'),
      ),
    ).toThrow(/parameters/);
    expect(() =>
      compiledRead((id: string, name: string) =>
        db.kysely.selectFrom('user').select('id').where('name', '=', name).where('id', '=', id),
      ),
    ).toThrow(/parameters/);
  });
});
