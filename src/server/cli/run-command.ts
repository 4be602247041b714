import { ConfigError } from '#server/config.ts';
import { keepFilesPrivate } from '#server/private-files.ts';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * How every `npm run <command>` runs its `main`: files it creates are private from the start
 * (a backup, an export, a new data folder), and its return value is the exit code. An error of
 * one of the `refusals` classes is the command saying no (a bad file, an unknown user): its
 * message is printed and the exit code is 1, as for a ConfigError (a setting the database
 * refuses, such as a missing or wrong key). Any other error is a bug, thrown with its stack.
 */
export async function runCommand(
  main: () => Promise<number>,
  options: { refusals?: readonly ErrorClass[] } = {},
): Promise<void> {
  keepFilesPrivate();
  try {
    process.exitCode = await main();
  } catch (error) {
    const refusals = [ConfigError, ...(options.refusals ?? [])];
    if (!refusals.some((refusal) => error instanceof refusal)) throw error;
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
