const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one value for a POSIX shell so it is always exactly one word and never runs:
 * plain words stay as they are, everything else is wrapped in single quotes (inside which
 * the shell interprets nothing) with embedded single quotes spelled '\''.
 */
export function shellQuote(value: string): string {
  if (SAFE.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
