import { codePointLabel, replaceHiddenInLine } from '#shared/command-safe-text.ts';

/**
 * A run's output comes from a client's server and is not to be trusted: written for a terminal,
 * it may hold escape sequences that colour text, clear the screen, move the cursor or, through
 * OSC 52, set the clipboard of whoever `cat`s the downloaded log. These are cut out before the
 * output is stored, so neither the page nor the download carries them:
 * - CSI, `ESC [` parameters, intermediates and a final byte (colours, cursor, erase);
 * - OSC, DCS, SOS, PM and APC strings, `ESC ] P X ^ _` up to BEL or ST (`ESC \`);
 * - any other escape, `ESC` with intermediates and a final byte (`ESC (B`, `ESC c`, `ESC 7`).
 * A string left unterminated or a lone ESC stays, to be shown as a visible mark, never hidden.
 */
const SEQUENCES =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|\u001b[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[\u0020-\u002f]*[\u0030-\u007e]/gu;

/**
 * The output without terminal escape sequences, and with a carriage return that does not end a
 * line (a progress bar redrawing itself) read as a line break: a terminal would write over the
 * text before it, and the log keeps that text rather than hide it. CRLF becomes a newline.
 */
export function withoutTerminalSequences(text: string): string {
  return text.replace(SEQUENCES, '').replace(/\r+\n?/gu, '\n');
}

/**
 * The stored log as a text file. A terminal that prints the file acts on any control character
 * left in it (a lone ESC joins whatever follows), and a bidi control reverses what follows in a
 * viewer: each hidden character but tab and newline is spelled out as `<U+001B>`, as the page
 * shows it. CRLF stays a line end.
 */
export function spelledOutLog(text: string): string {
  return replaceHiddenInLine(text.replaceAll('\r\n', '\n'), (character) =>
    character === '\t' || character === '\n' ? character : `<${codePointLabel(character)}>`,
  );
}
