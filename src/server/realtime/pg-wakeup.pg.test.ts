import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { appendEvent } from './event-log.ts';
import { PgWakeup } from './pg-wakeup.ts';

let db: Db;
let url: string;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  ({ db, url, close: closeDb } = await openTestDatabase());
});
afterAll(async () => closeDb());

const silent = pino({ level: 'silent' });

const append = () =>
  db.kysely.transaction().execute((trx) =>
    appendEvent(trx, 'postgres', {
      kind: 'client.created',
      clientId: 'c',
      actor: { id: 'u1', name: 'Other instance' },
      fields: [],
      at: new Date().toISOString(),
    }),
  );

/** Ends the listening connections of this database from the server side, as a restart does. */
async function terminateListeners(): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const result = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and application_name = 'clients-manager-listen'`,
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('PgWakeup', () => {
  it('wakes on every committed append of another connection', async () => {
    let wakes = 0;
    const wakeup = new PgWakeup(url, () => (wakes += 1), silent);
    await wakeup.start();
    try {
      expect(wakeup.listening).toBe(true);
      const afterStart = wakes; // it wakes once when it starts listening
      await append();
      await expect.poll(() => wakes, { timeout: 15_000 }).toBe(afterStart + 1);
      await append();
      await append();
      await expect.poll(() => wakes, { timeout: 15_000 }).toBe(afterStart + 3);
    } finally {
      await wakeup.close();
    }
  });

  it('reconnects when its connection is cut, wakes once it listens again, and hears again', async () => {
    let wakes = 0;
    const wakeup = new PgWakeup(url, () => (wakes += 1), silent);
    await wakeup.start();
    try {
      const beforeCut = wakes;
      expect(await terminateListeners()).toBe(1);
      // Notifications sent while it was away are not heard: the wake-up after reconnecting is
      // what makes the hub read them from the log.
      await expect.poll(() => wakes, { timeout: 15_000 }).toBe(beforeCut + 1);
      expect(wakeup.listening).toBe(true);
      await append();
      await expect.poll(() => wakes, { timeout: 15_000 }).toBe(beforeCut + 2);
    } finally {
      await wakeup.close();
    }
  });

  it('stops for good when closed', async () => {
    let wakes = 0;
    const wakeup = new PgWakeup(url, () => (wakes += 1), silent);
    await wakeup.start();
    await wakeup.close();
    expect(wakeup.listening).toBe(false);
    const before = wakes;
    // A wake-up still listening hears the append: by then a closed one would have heard it too.
    let heard = 0;
    const other = new PgWakeup(url, () => (heard += 1), silent);
    await other.start();
    try {
      const started = heard;
      await append();
      await expect.poll(() => heard, { timeout: 15_000 }).toBe(started + 1);
    } finally {
      await other.close();
    }
    expect(wakes).toBe(before);
    expect(await terminateListeners()).toBe(0);
  });
});
