import { sql } from 'kysely';
import type { DatabaseTarget } from '#server/config.ts';
import { openDatabase, type Db } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { CopyRefused } from './copy-database-result.ts';
import type { Side, TablePlan } from './copy-database-plan.ts';
import { countRows } from './copy-database-rows.ts';

/** Opens both sides: the source read-only, refusing one database copied onto itself. */
export async function openBoth(
  from: DatabaseTarget,
  to: DatabaseTarget,
): Promise<{ source: Db; target: Db }> {
  if (from.kind === 'sqlite' && to.kind === 'sqlite' && from.file === to.file) {
    throw new CopyRefused('The source and the target are the same file.');
  }
  if (from.kind === 'postgres' && to.kind === 'postgres' && from.url === to.url) {
    throw new CopyRefused('The source and the target are the same database.');
  }
  let source: Db;
  try {
    source = openDatabase(from, { readOnly: true });
  } catch (error) {
    throw new CopyRefused(`Cannot open the source: ${(error as Error).message}`);
  }
  try {
    return { source, target: openDatabase(to) };
  } catch (error) {
    await source.close();
    throw error;
  }
}

/** Migrates the target and refuses a source that this version's migrations did not all reach. */
export async function checkVersions(source: Db, target: Db): Promise<void> {
  const sourceMigrations = await appliedMigrations(source, 'source');
  await migrateToLatest(target);
  const targetMigrations = await appliedMigrations(target, 'target');
  if (sourceMigrations.join() === targetMigrations.join()) return;
  const missing = targetMigrations.filter((m) => !sourceMigrations.includes(m));
  throw new CopyRefused(
    missing.length > 0
      ? `The source database is from an older version (missing ${missing.join(', ')}): start this version of Clients Manager on it once, then copy.`
      : 'The source database is from a newer version of Clients Manager: copy with that version.',
  );
}

async function appliedMigrations(db: Db, side: Side): Promise<string[]> {
  try {
    const result = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(db.kysely);
    return result.rows.map((r) => r.name);
  } catch {
    throw new CopyRefused(`The ${side} database holds no Clients Manager data (no migrations).`);
  }
}

/** Refuses a target that holds rows in any table a copy writes (sessions included). */
export async function checkEmpty(target: Db, plan: readonly TablePlan[]): Promise<void> {
  const occupied: string[] = [];
  for (const table of plan) {
    const n = await countRows(target.kysely, table);
    if (n > 0) occupied.push(`${table.name}: ${n}`);
  }
  if (occupied.length > 0) {
    throw new CopyRefused(
      `The target database is not empty (${occupied.join(', ')} rows): copy only into a new, empty database.`,
    );
  }
}
