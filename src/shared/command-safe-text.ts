/**
 * Characters that must never reach a copied shell command. A terminal acts on control
 * characters as they are pasted, before Enter and whatever the quoting (U+0003 interrupts the
 * line, U+0015 erases it, a newline runs it); bidi controls and zero-width characters make a
 * command read differently from what it does. Every field that can end up in a command refuses
 * them, and the quoting refuses them again for data that was stored before.
 */
// C0, DEL, C1; Arabic letter mark; zero-width space/joiners, LRM/RLM; line and paragraph
// separators; LRE…RLO; word joiner; LRI…PDI; zero-width no-break space (BOM); every other
// format character (\p{Cf}: soft hyphen, invisible operators and separators, the Unicode tag
// characters, U+180E…); and what renders as nothing without being one: the combining grapheme
// joiner, the Hangul fillers, the Khmer inherent vowels.
const IN_A_LINE =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff' +
  '\\p{Cf}\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u3164\\uffa0';
// Variation selectors change how the character before them looks: in a name they give an
// emoji its colour, in a command one after a word hides there (`eu` and U+FE00 reads as `eu`).
const VARIATION_SELECTORS = '\\ufe00-\\ufe0f\\u{e0100}-\\u{e01ef}';

// In a line, a zero-width joiner between two emoji draws them as one (👩‍💻, 🏳️‍🌈: the first may
// carry its selector or skin tone); anywhere else it hides. A command keeps refusing it: two
// tags that differ only by a joiner would look alike in a terminal that draws both as two.
// (ExtPict: Extended_Pictographic; EMod: Emoji_Modifier, a skin tone.)
const LONE_JOINER = '\\u200d(?!\\p{ExtPict})|(?<![\\p{ExtPict}\\ufe0f\\p{EMod}])\\u200d';

/* eslint-disable no-misleading-character-class -- each combining mark is matched alone, on purpose */
const HIDDEN = new RegExp(`[${IN_A_LINE}${VARIATION_SELECTORS}]`, 'u');
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');
const HIDDEN_IN_LINE = new RegExp(`(?!\\u200d)[${IN_A_LINE}]|${LONE_JOINER}`, 'u');
const HIDDEN_IN_LINE_ALL = new RegExp(HIDDEN_IN_LINE.source, 'gu');
/* eslint-enable no-misleading-character-class */

/** The first hidden character of `value` as `U+0003`, or null when it has none. */
export function firstHiddenCharacter(value: string): string | null {
  const match = HIDDEN.exec(value);
  return match ? codePointLabel(match[0]) : null;
}

export function hasHiddenCharacters(value: string): boolean {
  return HIDDEN.test(value);
}

/** `U+0003` for a character, as Unicode names it. */
export function codePointLabel(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `value` with each hidden character replaced by what `replace` makes of it. */
export function replaceHidden(value: string, replace: (character: string) => string): string {
  return value.replace(HIDDEN_ALL, replace);
}

/**
 * The rule for a name or title shown on one line: the same characters but the variation
 * selectors, which only change how an emoji looks (a name may hold a coloured emoji), and a
 * joiner between two emoji.
 */
export function hasHiddenInLine(value: string): boolean {
  return HIDDEN_IN_LINE.test(value);
}

/** `value` with each character `hasHiddenInLine` refuses replaced by what `replace` makes of it. */
export function replaceHiddenInLine(value: string, replace: (character: string) => string): string {
  return value.replace(HIDDEN_IN_LINE_ALL, replace);
}

/**
 * The text split into plain runs and hidden characters, for showing them to a person. The
 * characters in `keep` stay plain text (a log's tabs); `inLine` marks only what the rule for a
 * line refuses, so an emoji's variation selector in a log is no mark.
 */
export function splitHidden(
  value: string,
  options: { keep?: string; inLine?: boolean } = {},
): { text: string; hidden: boolean }[] {
  const keep = options.keep ?? '';
  const parts: { text: string; hidden: boolean }[] = [];
  let last = 0;
  for (const match of value.matchAll(options.inLine ? HIDDEN_IN_LINE_ALL : HIDDEN_ALL)) {
    if (keep.includes(match[0])) continue;
    if (match.index > last) parts.push({ text: value.slice(last, match.index), hidden: false });
    parts.push({ text: codePointLabel(match[0]), hidden: true });
    last = match.index + match[0].length;
  }
  if (last < value.length) parts.push({ text: value.slice(last), hidden: false });
  return parts;
}

export const HIDDEN_CHARACTER_MESSAGE =
  'Must not contain control, bidi or zero-width characters: they can run or disguise a pasted command';

/**
 * The same characters in a name or title shown on one line (lists, history, chat messages): a
 * newline or ESC would start a forged line, a bidi control reverse what follows.
 */
export const HIDDEN_IN_LINE_MESSAGE =
  'Must not contain control, bidi or zero-width characters: they can break or disguise the line it is shown on';

/** For an address shown as a link: a bidi control or a zero-width character disguises it. */
export const HIDDEN_IN_ADDRESS_MESSAGE =
  'Must not contain control, bidi or zero-width characters: they can disguise the address';

/**
 * A value that starts with '-' is taken for an option by the program a command hands it to,
 * however it is quoted: a first tag `--token=x` after `--server` is a second token,
 * `tar -cf a.tar {uiDir}` with `--use-compress-program=…` runs a program, `cd -` goes to the
 * previous folder. Every value that can reach a command refuses it, and the quoting again.
 */
export function startsLikeOption(value: string): boolean {
  return value.startsWith('-');
}

export const LEADING_DASH_MESSAGE = "Must not start with '-'";
