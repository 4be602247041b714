import { keepFilesPrivate } from '#server/private-files.ts';

/**
 * How every `npm run <command>` runs its `main`: files it creates are private from the start
 * (a backup, an export, a new data folder), and its return value is the exit code.
 */
export async function runCommand(main: () => Promise<number>): Promise<void> {
  keepFilesPrivate();
  process.exitCode = await main();
}
