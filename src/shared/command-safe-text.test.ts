import { describe, expect, it } from 'vitest';
import { clientInputSchema, lineText, trimmedText } from './clients.ts';
import { firstHiddenCharacter, hasHiddenCharacters, splitHidden } from './command-safe-text.ts';

/**
 * Invisible characters the first rule let through: the review's copy showed `'eu⁣'` (U+2063
 * after it) looking like `eu`. Every format character (`\p{Cf}`), the fillers and blanks that
 * render as nothing, and the variation selectors are refused in what reaches a command.
 */
const INVISIBLE = [
  '\u2063', // invisible separator (the review's)
  '\u{E0065}', // a Unicode tag character (the review's)
  '\u{E0001}',
  '\u180e', // Mongolian vowel separator (the review's, in code)
  '\u00ad', // soft hyphen (the review's, in username)
  '\u034f', // combining grapheme joiner (the review's, in uiDir)
  '\u2061',
  '\u2064',
  '\u206a',
  '\u0600',
  '\ufff9',
  '\u115f',
  '\u1160',
  '\u17b4',
  '\u17b5',
  '\u3164',
  '\uffa0',
  '\ufe00',
  '\ufe0f',
  '\u{E0100}',
  '\u{E01EF}',
];

const label = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('characters refused in what reaches a command', () => {
  it.each(INVISIBLE.map((c) => [label(c), c]))('refuses %s', (name, character) => {
    const value = `eu${character}`;
    expect(hasHiddenCharacters(value)).toBe(true);
    expect(firstHiddenCharacter(value)).toBe(name);
    expect(splitHidden(value)).toEqual([
      { text: 'eu', hidden: false },
      { text: name, hidden: true },
    ]);
  });

  it('refuses them in a client’s tags, code, username and uiDir, naming each field', () => {
    const result = clientInputSchema.safeParse({
      tags: ['eu\u2063'],
      code: 'AC\u180eME',
      server: { host: 'h.example', username: 'de\u00adploy', uiDir: '/srv/\u034fui' },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining(['tags.0', 'code', 'server.username', 'server.uiDir']),
    );
  });

  it('takes ordinary text of any script', () => {
    for (const text of ['Zürich', '東京', 'שלום', '서울', 'Ελλάδα', 'naïve-café', 'Ханой']) {
      expect(hasHiddenCharacters(text), text).toBe(false);
    }
  });
});

describe('names and free text keep their own rules', () => {
  it('a one-line name refuses the format characters but keeps an emoji’s presentation', () => {
    const name = lineText(200);
    expect(name.safeParse('Acme\u2063').success).toBe(false);
    expect(name.safeParse('Acme\u{E0065}').success).toBe(false);
    expect(name.safeParse('Café ☕️ and ❤️').success).toBe(true);
  });

  it('a one-line name takes emoji drawn as one with a joiner, and no joiner elsewhere', () => {
    const name = lineText(200);
    for (const text of ['Team 👩‍💻', 'Pride 🏳️‍🌈', '👩🏽‍💻 on call', '🐻‍❄️', 'Café ☕️ and ❤️']) {
      expect(name.safeParse(text).success, text).toBe(true);
      expect(splitHidden(text, { inLine: true }), text).toEqual([{ text, hidden: false }]);
    }
    for (const text of ['Ac\u200dme', '\u200d👩', '👩\u200d', '👩\u200d\u200d💻', 'a\u200d💻']) {
      expect(name.safeParse(text).success, text).toBe(false);
    }
  });

  it('a tag refuses an emoji’s joiner and selector: it reaches the deploy command', () => {
    for (const tag of ['🏳️‍🌈', '👩‍💻', '❤️']) {
      expect(clientInputSchema.safeParse({ tags: [tag] }).success, tag).toBe(false);
    }
    expect(clientInputSchema.safeParse({ tags: ['🚀'] }).success).toBe(true);
  });

  it('a description takes emoji with joiners, variation selectors and tag sequences', () => {
    const text = 'Team 👩‍💻 ❤️ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 and a soft\u00adhyphen';
    expect(trimmedText(5000).safeParse(text).success).toBe(true);
    expect(clientInputSchema.safeParse({ description: text }).success).toBe(true);
  });
});

describe('splitHidden', () => {
  it('marks each hidden character, but leaves the ones asked to be kept as text', () => {
    expect(splitHidden('a\tb\u202ec')).toEqual([
      { text: 'a', hidden: false },
      { text: 'U+0009', hidden: true },
      { text: 'b', hidden: false },
      { text: 'U+202E', hidden: true },
      { text: 'c', hidden: false },
    ]);
    expect(splitHidden('a\tb\u202ec', { keep: '\t' })).toEqual([
      { text: 'a\tb', hidden: false },
      { text: 'U+202E', hidden: true },
      { text: 'c', hidden: false },
    ]);
    // A log's emoji keeps its variation selector; a command field's would be marked.
    expect(splitHidden('ok \u2714\ufe0f\u202e', { inLine: true })).toEqual([
      { text: 'ok \u2714\ufe0f', hidden: false },
      { text: 'U+202E', hidden: true },
    ]);
    expect(splitHidden('eu\ufe00')).toEqual([
      { text: 'eu', hidden: false },
      { text: 'U+FE00', hidden: true },
    ]);
  });
});
