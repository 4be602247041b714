import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseTarget } from '#server/config.ts';
import { postgresFailure } from '#server/start-failure.ts';
import { openDatabase, type Db } from './database.ts';
import { serversRunningOn } from './servers-running.ts';
import { migrateToLatest, migrationNames } from './migrate.ts';
import { CopyRefused } from './copy-database-result.ts';
import type { Side, TablePlan } from './copy-database-plan.ts';
import { countRows } from './copy-database-rows.ts';
import { COPIED_TABLES, NOT_COPIED } from './copy-database-tables.ts';

/**
 * Opens both sides: the source read-only, refusing one database copied onto itself. `created`:
 * the target is a SQLite file this call made (with its folder, if that was new too), which a
 * copy that does not complete removes again.
 */
export async function openBoth(
  from: DatabaseTarget,
  to: DatabaseTarget,
): Promise<{ source: Db; target: Db; created?: { file: string; folder?: string } }> {
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
  const notAFolder = to.kind === 'sqlite' ? fileOnTheWay(path.dirname(to.file)) : null;
  const running = notAFolder ? null : await serversRunningOn(to);
  if (notAFolder || running) {
    await source.close();
    throw new CopyRefused(
      running ?? `${notAFolder} is a file, not a folder: name a new data folder.`,
    );
  }
  const created =
    to.kind === 'sqlite' && to.file !== ':memory:' && !fs.existsSync(to.file)
      ? {
          file: to.file,
          folder: fs.existsSync(path.dirname(to.file)) ? undefined : path.dirname(to.file),
        }
      : undefined;
  try {
    return { source, target: openDatabase(to), created };
  } catch (error) {
    await source.close();
    throw error;
  }
}

/** The nearest of `folder` and the folders above it that exists, when it is not a folder. */
function fileOnTheWay(folder: string): string | null {
  for (let at = folder; ; at = path.dirname(at)) {
    if (fs.existsSync(at)) return fs.statSync(at).isDirectory() ? null : at;
    if (path.dirname(at) === at) return null;
  }
}

/** What a copy is for, which its refusals name: `npm run db:copy`, `backup` or `restore`. */
export type CopyPurpose = 'copy' | 'backup' | 'restore';

const VERSION_ADVICE: Record<CopyPurpose, { older: string; newer: string }> = {
  copy: {
    older:
      'The source database is from an older version ({missing}): start this version of Clients Manager on it once, then copy.',
    newer:
      'The source database is from a newer version of Clients Manager: copy with that version.',
  },
  backup: {
    older:
      'The source database is from an older version ({missing}): back up with the version that runs on it, or start this version on it once.',
    newer:
      'The source database is from a newer version of Clients Manager: back up with that version.',
  },
  restore: {
    older:
      'The backup is from an older version of Clients Manager ({missing}): restore it with the version that made it; this version migrates it when it starts on it.',
    newer: 'The backup is from a newer version of Clients Manager: restore it with that version.',
  },
};

/** Refuses a source that this version's migrations did not all reach, or that a newer one did. */
export async function checkSourceVersion(source: Db, purpose: CopyPurpose): Promise<void> {
  const applied = await appliedMigrations(source, 'source');
  const ours = migrationNames();
  if (applied.join() === ours.join()) return;
  const missing = ours.filter((m) => !applied.includes(m));
  const advice = VERSION_ADVICE[purpose];
  throw new CopyRefused(
    missing.length > 0
      ? advice.older.replace('{missing}', `missing ${missing.join(', ')}`)
      : advice.newer,
  );
}

/**
 * Refuses a target that is not a new, empty database, before anything is written to it: one
 * holding tables that are not Clients Manager's (another application's database, named by
 * mistake), rows in a table a copy writes, or migrations of a newer version. Migrating first
 * would have added this version's tables to someone else's database and then refused.
 */
export async function checkTargetUnused(target: Db): Promise<void> {
  const present = new Set<string>();
  const foreign: string[] = [];
  for (const table of await target.kysely.introspection.getTables()) {
    // PostgreSQL: only the default schema is ours (extensions may keep tables elsewhere).
    if (table.schema && table.schema !== 'public') continue;
    if (COPIED_TABLES.some((t) => t.name === table.name)) present.add(table.name);
    else if (!NOT_COPIED.has(table.name)) foreign.push(table.name);
  }
  if (foreign.length > 0) {
    throw new CopyRefused(
      `The target database holds tables that are not Clients Manager's (${foreign.join(', ')}): copy only into a new, empty database.`,
    );
  }
  await checkEmpty(
    target,
    COPIED_TABLES.filter((t) => present.has(t.name)).map((t) => ({ ...t, columns: [] })),
  );
  if (present.size === 0) return;
  const newer = (await appliedMigrations(target, 'target')).filter(
    (m) => !migrationNames().includes(m),
  );
  if (newer.length > 0) {
    throw new CopyRefused(
      `The target database was migrated by a newer version of Clients Manager (${newer.join(', ')}): copy with that version.`,
    );
  }
}

/** Migrates the checked target; afterwards it has applied exactly this version's migrations. */
export async function migrateTarget(target: Db): Promise<void> {
  await migrateToLatest(target);
  const applied = await appliedMigrations(target, 'target');
  if (applied.join() !== migrationNames().join()) {
    throw new CopyRefused(
      'The target database does not have the migrations of this version of Clients Manager.',
    );
  }
}

async function appliedMigrations(db: Db, side: Side): Promise<string[]> {
  try {
    const result = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(db.kysely);
    return result.rows.map((r) => r.name);
  } catch (error) {
    // A database that cannot be reached or refuses the password says so: it is not one
    // without data.
    const failure = postgresFailure(error, 'its URL');
    if (failure) throw new CopyRefused(`Cannot open the ${side}: ${failure}.`);
    if (!isMissingTable(error)) throw error;
    throw new CopyRefused(`The ${side} database holds no Clients Manager data (no migrations).`);
  }
}

/** PostgreSQL's "undefined table", SQLite's "no such table". */
function isMissingTable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '42P01' || (typeof message === 'string' && message.startsWith('no such table'));
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

/** Removes a SQLite target the copy made, with its journal files (and its folder, if new). */
export function removeCreated(created: { file: string; folder?: string }): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    fs.rmSync(created.file + suffix, { force: true });
  }
  if (created.folder && fs.readdirSync(created.folder).length === 0) fs.rmdirSync(created.folder);
}
