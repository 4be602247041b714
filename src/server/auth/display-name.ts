import { replaceHidden } from '#shared/command-safe-text.ts';

/** The longest display name, as for a client's name. */
export const MAX_NAME_LENGTH = 200;

/**
 * A display name as the app stores it. The app's own forms refuse a name with control, bidi or
 * zero-width characters or over MAX_NAME_LENGTH (auth.ts), but a provider's profile (Google,
 * OIDC) is not asked: each such character becomes a space, and the name is cut to the cap
 * between two characters, never inside one. A name the forms accept is kept as it is.
 */
export function storableDisplayName(name: string): string {
  const line = replaceHidden(name, () => ' ');
  if (line.length <= MAX_NAME_LENGTH) return line;
  let cut = '';
  for (const character of line) {
    if (cut.length + character.length > MAX_NAME_LENGTH) break;
    cut += character;
  }
  return cut;
}
