import { DISPLAY_NAME_MAX } from '#shared/account.ts';
import { replaceHidden } from '#shared/command-safe-text.ts';

/**
 * A display name as the app stores it. The app's own forms refuse a name with control, bidi or
 * zero-width characters or over DISPLAY_NAME_MAX (auth.ts), but a provider's profile (Google,
 * OIDC) is not asked: each such character becomes a space, and the name is cut to the cap
 * between two characters, never inside one. A name the forms accept is kept as it is.
 */
export function storableDisplayName(name: string): string {
  const line = replaceHidden(name, () => ' ');
  if (line.length <= DISPLAY_NAME_MAX) return line;
  let cut = '';
  for (const character of line) {
    if (cut.length + character.length > DISPLAY_NAME_MAX) break;
    cut += character;
  }
  return cut;
}
