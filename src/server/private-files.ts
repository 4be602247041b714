import fs from 'node:fs';
import path from 'node:path';

/**
 * Every file and folder this process creates is readable by its own user only, from the moment
 * it exists: the database and its WAL, the secret key, backups, exports, the mail outbox. A mode
 * set after writing would leave a window in which another local user could open the file, and
 * SQLite creates its -wal and -shm files itself. The server and every command call this first.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

/**
 * Makes DATA_DIR and the files directly in it private when an older install (or a copy) left
 * them readable by others. Returns the paths it changed, for one line in the log.
 */
export function tightenDataDir(dataDir: string): string[] {
  if (!fs.existsSync(dataDir)) return [];
  const changed: string[] = [];
  const tighten = (file: string, mode: number) => {
    const stat = fs.statSync(file);
    if ((stat.mode & 0o077) === 0) return;
    fs.chmodSync(file, mode);
    changed.push(file);
  };
  tighten(dataDir, 0o700);
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const file = path.join(dataDir, entry.name);
    if (entry.isDirectory()) tighten(file, 0o700);
    else if (entry.isFile()) tighten(file, 0o600);
  }
  return changed;
}

/**
 * Makes `folder` and any missing folders on its way, private (0700). Not Node's recursive
 * mkdir: where the system says a folder does not exist and cannot make it although its parent
 * exists (under /proc), that retries forever at full CPU; this fails with ENOENT instead.
 */
export function makePrivateFolder(folder: string): void {
  if (fs.existsSync(folder)) return;
  makePrivateFolder(path.dirname(folder));
  try {
    fs.mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    // Another process made it meanwhile (two starts, a command beside the server).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Makes the folder an --out file goes in (private, as makePrivateFolder does); null when it is
 * there and writable, else why not, in the words a command refuses with.
 */
export function outputFolderProblem(folder: string): string | null {
  try {
    makePrivateFolder(folder);
    fs.accessSync(folder, fs.constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return `${folder} cannot be made or written to (${code}): choose another --out.`;
  }
}
