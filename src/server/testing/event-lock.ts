import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { EVENT_APPEND_LOCK } from '#server/realtime/event-log.ts';

/**
 * PostgreSQL only. Holds the advisory lock every event append takes (last, before commit), so
 * a write stops at its end with its rows written and their locks held: a race between two
 * writes is then played out in a known order, not hoped for. `release` commits the holder.
 */
export async function holdEventLock(
  db: Kysely<Database>,
): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(EVENT_APPEND_LOCK)})`.execute(trx);
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

/**
 * How many locks of a kind transactions on this database wait for, to poll: `advisory` (an
 * append behind the held event lock), `transactionid` (a row or unique key another open
 * transaction wrote).
 */
export function lockWaiters(
  db: Kysely<Database>,
  locktype: 'advisory' | 'transactionid',
): () => Promise<number> {
  return async () => {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from pg_locks
      where locktype = ${locktype} and not granted and pid in
        (select pid from pg_stat_activity where datname = current_database())`.execute(db);
    return Number(rows[0]!.n);
  };
}
