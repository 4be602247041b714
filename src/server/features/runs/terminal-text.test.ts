import { describe, expect, it } from 'vitest';
import { spelledOutLog, withoutTerminalSequences } from './terminal-text.ts';

describe('withoutTerminalSequences', () => {
  it('cuts out CSI sequences: colours, cursor moves, erases', () => {
    expect(withoutTerminalSequences('\x1b[1;31mred\x1b[0m \x1b[2J\x1b[Hhome \x1b[?25l\x1b[K')).toBe(
      'red home ',
    );
  });

  it('cuts out OSC and other strings up to BEL or ST', () => {
    expect(withoutTerminalSequences('a\x1b]52;c;cm0gLXJmIH4=\x07b')).toBe('ab');
    expect(withoutTerminalSequences('a\x1b]0;title\x1b\\b')).toBe('ab');
    expect(withoutTerminalSequences('a\x1b]8;;https://x.test\x07link\x1b]8;;\x07b')).toBe('alinkb');
    expect(withoutTerminalSequences('a\x1bPq#0;2;0;0;0\x1b\\b')).toBe('ab');
  });

  it('cuts out two-character escapes and charset selections', () => {
    expect(withoutTerminalSequences('a\x1bcb\x1b(Bc\x1b7d\x1b8')).toBe('abcd');
  });

  it('leaves a lone ESC, an unterminated string’s text and other characters to be shown', () => {
    expect(withoutTerminalSequences('a\x1b')).toBe('a\x1b');
    expect(withoutTerminalSequences('a\x1b\u2022')).toBe('a\x1b\u2022');
    // The opening escape goes; what follows it is plain text.
    expect(withoutTerminalSequences('a\x1b]52;c;abc')).toBe('a52;c;abc');
    expect(withoutTerminalSequences('bidi \u202eevil\x07\x08')).toBe('bidi \u202eevil\x07\x08');
  });

  it('keeps tabs and newlines, reads CRLF as a newline and a lone CR as a line break', () => {
    expect(withoutTerminalSequences('a\tb\r\nc\n')).toBe('a\tb\nc\n');
    expect(withoutTerminalSequences('rm -rf /\rls\n10%\r50%\r\r\n')).toBe(
      'rm -rf /\nls\n10%\n50%\n',
    );
  });
});

describe('spelledOutLog', () => {
  it('spells out every hidden character but tab and newline, and keeps CRLF a line end', () => {
    expect(spelledOutLog('a\x1bb\u202ec\u200bd\x07\u009b\te\r\nf\rg\n')).toBe(
      'a<U+001B>b<U+202E>c<U+200B>d<U+0007><U+009B>\te\nf<U+000D>g\n',
    );
  });
});
