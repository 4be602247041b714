import { describe, expect, it } from 'vitest';
import { splitHidden } from './command-safe-text.ts';

describe('splitHidden', () => {
  it('marks each hidden character, but leaves the ones asked to be kept as text', () => {
    expect(splitHidden('a\tb\u202ec')).toEqual([
      { text: 'a', hidden: false },
      { text: 'U+0009', hidden: true },
      { text: 'b', hidden: false },
      { text: 'U+202E', hidden: true },
      { text: 'c', hidden: false },
    ]);
    expect(splitHidden('a\tb\u202ec', '\t')).toEqual([
      { text: 'a\tb', hidden: false },
      { text: 'U+202E', hidden: true },
      { text: 'c', hidden: false },
    ]);
  });
});
