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
