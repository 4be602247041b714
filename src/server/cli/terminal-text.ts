import { replaceHiddenInLine } from '#shared/command-safe-text.ts';

/**
 * Text someone else wrote (a display name, an id or a name from an import file, a message that
 * quotes one), made safe to print to the operator's terminal: each control, bidi or zero-width
 * character is shown as its escape (`\u{1b}`), so ESC cannot move the cursor, erase a line,
 * forge another or write the clipboard (OSC 52), and a newline or tab cannot fake a line or a
 * column. The characters are those a name shown on one line refuses (command-safe-text.ts): an
 * emoji's variation selector prints as it is.
 */
export function terminalText(value: string): string {
  return replaceHiddenInLine(
    value,
    (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}
