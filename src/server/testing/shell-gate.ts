import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A gate in a command a test runs over SSH: `wait` is a shell step that holds the command until
 * the test calls `open()`, so "not before the test has seen this" is a signal, not a sleep. The
 * step also stops waiting once `folder` (the test's temporary folder) is gone, so a test that
 * failed before opening the gate leaves nothing running.
 */
export function shellGate(
  folder: string,
  name: string,
): { wait: string; open: () => Promise<void> } {
  const file = path.join(folder, name);
  if (file.includes("'")) throw new Error(`shellGate: a quote in ${file}`);
  return {
    wait: `until [ -e '${file}' ] || [ ! -d '${folder}' ]; do sleep 0.05; done`,
    open: () => writeFile(file, ''),
  };
}
