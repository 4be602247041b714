import { firstHiddenCharacter, startsLikeOption } from '#shared/command-safe-text.ts';

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one value for a shell so it is always exactly one word and never runs: plain words stay
 * as they are; otherwise each single quote and backslash is written outside quotes after a
 * backslash of its own, and the text between them in single quotes, inside which the shell
 * interprets nothing. POSIX shells take a backslash inside single quotes as it is, but fish
 * reads `\'` and `\\` there as escapes, so a value holding `\'` would end its quote early in
 * fish, and staff copy these commands into whatever shell they use.
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
  return value === '' ? "''" : quotedParts(value);
}

/**
 * A non-empty value as shellQuote spells it when it is not a plain word: quoted parts never
 * empty, so no `''` appears, which zsh's RC_QUOTES would read as a quote.
 */
export function quotedParts(value: string): string {
  return value
    .split(/(['\\])/)
    .filter((part) => part !== '')
    .map((part) => (part === "'" || part === '\\' ? `\\${part}` : `'${part}'`))
    .join('');
}
