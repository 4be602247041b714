import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.ts';

describe('terminalText', () => {
  it.each([
    // Erase the line, go back to its start, write a forged one; OSC 52 writes the clipboard.
    ['Eve\u001b[2K\rroot\tadmin', 'Eve\\u{1b}[2K\\u{d}root\\u{9}admin'],
    ['x\u001b]52;c;Y3VybCB4fHNo\u0007', 'x\\u{1b}]52;c;Y3VybCB4fHNo\\u{7}'],
    ['a\nb\u0085c\u007f', 'a\\u{a}b\\u{85}c\\u{7f}'],
    // Bidi overrides and zero-width characters disguise what is read.
    ['\u202eevil\u202c\u200b\u2066', '\\u{202e}evil\\u{202c}\\u{200b}\\u{2066}'],
    ['Zoë Ødegaard 日本 🙂', 'Zoë Ødegaard 日本 🙂'],
  ])('%j', (text, shown) => {
    expect(terminalText(text)).toBe(shown);
  });
});
