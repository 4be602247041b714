import { firstHiddenCharacter, startsLikeOption } from '#shared/command-safe-text.ts';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one value for a POSIX shell so it is always exactly one word and never runs:
 * plain words stay as they are, everything else is wrapped in single quotes (inside which
 * the shell interprets nothing) with embedded single quotes spelled '\''.
 */
export function shellQuote(value: string): string {
  // Quoting keeps a value one word, but a word that starts with '-' is still an option to the
  // program that gets it. Callers check first and explain.
  if (startsLikeOption(value)) throw new Error("Refused to quote a value starting with '-'");
  if (SAFE.test(value)) return value;
  // Quotes mean nothing to a terminal: a control character acts as it is pasted. Callers check
  // first and explain; this is the last line, and names no value.
  const hidden = firstHiddenCharacter(value);
  if (hidden !== null) throw new Error(`Refused to quote a value holding ${hidden}`);
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
