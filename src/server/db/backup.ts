import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { DatabaseTarget } from '#server/config.ts';
import { CopyRefused, copyDatabase, type CopyReport } from './copy-database.ts';
import { outputFolderProblem } from '#server/private-files.ts';

/**
 * A backup is a Clients Manager database in one SQLite file: every table `db:copy` knows
 * (users with their sign-in accounts, sessions, deploy tokens, clients, deleted clients kept
 * for undo, the whole event log with its sequence numbers), written by the same copy-and-verify
 * code. One format for both databases: a backup of PostgreSQL restores into SQLite and the
 * other way round, and `sqlite3` can open it.
 *
 * Consistent while the server runs: the copy reads its source in one transaction, a snapshot
 * (SQLite: a WAL read transaction, writers go on; PostgreSQL: REPEATABLE READ, read only), so
 * the backup holds every write committed before it started and none after, each client with
 * exactly its events.
 */
export async function backupDatabase(from: DatabaseTarget, file: string): Promise<CopyReport> {
  const out = path.resolve(file);
  if (fs.existsSync(out)) throw new CopyRefused(`${out} exists already: choose a new file.`);
  const folderProblem = outputFolderProblem(path.dirname(out));
  if (folderProblem) throw new CopyRefused(folderProblem);
  // Written beside the target and renamed at the end: a failed backup leaves no file that
  // looks like one.
  const partial = `${out}.partial`;
  removeSqliteFiles(partial);
  try {
    const report = await copyDatabase(
      from,
      { kind: 'sqlite', file: partial },
      { sessions: true, purpose: 'backup' },
    );
    // One self-contained file (no -wal beside it), readable without write access.
    const sqlite = new SQLite(partial);
    sqlite.pragma('journal_mode = DELETE');
    sqlite.close();
    fs.renameSync(partial, out);
    return report;
  } finally {
    removeSqliteFiles(partial);
  }
}

/**
 * Restores a backup into a new, empty database (a fresh DATA_DIR's file, or an empty
 * PostgreSQL database), migrated first, in one transaction, verified row by row against the
 * backup: a restore that does not verify keeps nothing.
 */
export async function restoreDatabase(file: string, to: DatabaseTarget): Promise<CopyReport> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new CopyRefused(`There is no backup at ${source}.`);
  if (fs.statSync(source).isDirectory()) {
    throw new CopyRefused(`${source} is a folder: name the backup file in it.`);
  }
  const check = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new CopyRefused(`${source} is damaged: ${String(result)}`);
  } catch (error) {
    if (error instanceof CopyRefused) throw error;
    throw new CopyRefused(`${source} is not a backup: ${(error as Error).message}`);
  } finally {
    check.close();
  }
  return copyDatabase({ kind: 'sqlite', file: source }, to, { sessions: true, purpose: 'restore' });
}

function removeSqliteFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}
