import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/** Transactions of this PostgreSQL database waiting for a lock: a sign that a write blocks. */
export async function lockWaiters(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from pg_stat_activity
    where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Holds a row's lock (`FOR UPDATE`) in a transaction of its own, as a colleague's write does,
 * and runs `meanwhile` in it when `release` is called; `committed` resolves when that
 * transaction ends. For tests of writes racing on PostgreSQL.
 */
export async function holdRow(
  db: Kysely<Database>,
  table: 'app' | 'client' | 'credential' | 'server',
  id: string,
  meanwhile: (trx: Kysely<Database>) => Promise<void>,
): Promise<{ release: () => void; committed: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const committed = db.transaction().execute(async (trx) => {
    await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
    locked();
    await released;
    await meanwhile(trx);
  });
  await isLocked;
  return { release, committed };
}
