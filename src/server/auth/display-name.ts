import { DISPLAY_NAME_MAX } from '#shared/account.ts';
import { replaceHiddenInLine } from '#shared/command-safe-text.ts';

/**
 * A display name as the app stores it. The app's own forms refuse a name with control, bidi or
 * zero-width characters or over DISPLAY_NAME_MAX (auth.ts), but a provider's profile (Google,
 * OIDC) is not asked: each such character becomes a space, and the name is cut to the cap
 * between two characters as a person sees them (an emoji joined from several stays whole or
 * goes). A name the forms accept is kept as it is.
 */
export function storableDisplayName(name: string): string {
  const line = replaceHiddenInLine(name, () => ' ');
  if (line.length <= DISPLAY_NAME_MAX) return line;
  let cut = '';
  for (const { segment } of graphemes.segment(line)) {
    if (cut.length + segment.length > DISPLAY_NAME_MAX) break;
    cut += segment;
  }
  return cut;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
