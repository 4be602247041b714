import type { Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work` in one read-only transaction that sees the database as it was at its first read,
 * whatever commits meanwhile: REPEATABLE READ on PostgreSQL, whose default READ COMMITTED lets
 * each statement see a later moment. SQLite's one connection lets no write in during a
 * transaction. Nothing may be written in it (PostgreSQL refuses).
 */
export function inSnapshot<T>(
  db: Db,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.dialect === 'postgres'
    ? db.kysely
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute(work)
    : db.kysely.transaction().execute(work);
}
