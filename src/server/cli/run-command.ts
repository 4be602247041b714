import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ConfigError, loadConfig } from '#server/config.ts';
import { startFailureMessage } from '#server/start-failure.ts';
import { keepFilesPrivate } from '#server/private-files.ts';
import { terminalText } from './terminal-text.ts';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * A command called the wrong way (an unknown option, a missing value, an argument too many):
 * its message is printed, with the command's usage unless `showUsage` is false, and the exit
 * code is 2.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly showUsage: boolean;

  constructor(message: string, options: { showUsage?: boolean } = {}) {
    super(message);
    this.showUsage = options.showUsage ?? true;
  }
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

/**
 * The command line, as `parseArgs` reads it, with a mistake in it thrown as a UsageError.
 * `maxPositionals` is how many arguments besides the options the command takes (a number, or
 * one that depends on the arguments, e.g. on the subcommand). An argument too many is refused
 * rather than ignored, and not echoed: it may be a password typed where none is read.
 */
export function parseCommandLine<const O extends ParseArgsOptionsConfig>(
  options: O,
  maxPositionals: number | ((positionals: string[]) => number) = 0,
  args: string[] = process.argv.slice(2),
) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError((error as Error).message);
    }
    throw error;
  }
  const max =
    typeof maxPositionals === 'function' ? maxPositionals(parsed.positionals) : maxPositionals;
  if (parsed.positionals.length > max) {
    const which = ORDINALS[max] ?? `number ${max + 1}`;
    throw new UsageError(
      max === 0
        ? 'This command takes no arguments besides its options (one was given).'
        : `Unexpected ${which} argument: this command takes ${max} besides its options.`,
    );
  }
  return parsed;
}

/**
 * How every `npm run <command>` runs its `main`: files it creates are private from the start
 * (a backup, an export, a new data folder), and its return value is the exit code. A
 * UsageError is printed with `usage` and the exit code is 2. An error of one of the `refusals`
 * classes is the command saying no (a bad file, an unknown user): its message is printed and
 * the exit code is 1, as for a ConfigError (a setting the database refuses, such as a missing
 * or wrong key). So is a database or data folder the settings name that cannot be used (a
 * PostgreSQL server that cannot be reached or refuses the password), in one line as the
 * server's start says it. Any other error is a bug, thrown with its stack.
 */
export async function runCommand(
  main: () => Promise<number>,
  options: { usage: string; refusals?: readonly ErrorClass[] },
): Promise<void> {
  keepFilesPrivate();
  try {
    process.exitCode = await main();
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.showUsage ? `${error.message}\n\n${options.usage}` : error.message);
      process.exitCode = 2;
      return;
    }
    const refusals = [ConfigError, ...(options.refusals ?? [])];
    if (!refusals.some((refusal) => error instanceof refusal)) {
      const message = settingFailure(error);
      if (message === null) throw error;
      console.error(message);
      process.exitCode = 1;
      return;
    }
    // A refusal may quote what it refuses: a name from an import file, a table of a backup.
    console.error(terminalText((error as Error).message));
    process.exitCode = 1;
  }
}

/**
 * The one line the server's start prints for `error` (start-failure.ts), or null. The settings
 * are read again as the command read them (configFromEnvOrExit loaded `.env` already): they
 * say whether DATABASE_URL names PostgreSQL, and so what an ECONNREFUSED was refused.
 */
function settingFailure(error: unknown): string | null {
  let config;
  try {
    config = loadConfig();
  } catch {
    return null;
  }
  return startFailureMessage(error, config, 'Cannot run');
}
