import { execFileSync } from 'node:child_process';

/** Each run starts a shell; on a busy 2-core machine a hundred of them take tens of seconds. */
export const SHELL_RUNS_TIMEOUT_MS = 90_000;

/**
 * Pieces of text a shell gives meaning to (quotes, substitutions, operators, globs, comments,
 * variables), and a few plain multibyte characters beside them: property tests join them into
 * values that must come out of the shell as one inert word.
 */
export const SHELL_SPECIALS = [
  "'",
  '"',
  '\\',
  '$(',
  ')',
  '`',
  ';',
  '&&',
  '|',
  '*',
  '~',
  ' ',
  '#',
  '-',
  '$IFS',
  '$HOME',
  "'\\''",
  'é',
  '💥',
] as const;

/** The words a real POSIX shell makes of a command line, without running its program. */
export function wordsOf(command: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${command}`]);
  return out.toString('utf8').split('\0').slice(0, -1);
}
