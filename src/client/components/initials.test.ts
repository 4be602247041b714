import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials', () => {
  it('takes the first character of two words, or two of one word, as Mantine’s Avatar did', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('ada')).toBe('AD');
    expect(initials('Grace Brewster Hopper')).toBe('GB');
    expect(initials('Zoë Østergaard')).toBe('ZØ');
  });

  it('never cuts an emoji in half, which would draw a broken character', () => {
    for (const [name, expected] of [
      ['Ada 🏳️‍🌈', 'A🏳'],
      ['Ada 🚀', 'A🚀'],
      ['🚀', '🚀'],
      ['𝒜da', '𝒜D'],
    ]) {
      const made = initials(name!);
      expect(made, name).toBe(expected);
      expect(made.isWellFormed(), name).toBe(true);
    }
  });
});
