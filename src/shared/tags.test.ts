import { describe, expect, it } from 'vitest';
import { formatTags, parseTags } from './tags.ts';

describe('parseTags', () => {
  it.each([
    ['prod, eu ,web', ['prod', 'eu', 'web']],
    [' , ,', []],
    ['', []],
    ['a,,b,', ['a', 'b']],
    ['dup, dup, other', ['dup', 'other']],
    ['x; rm -rf ~, y', ['x; rm -rf ~', 'y']],
  ])('%j → %j', (input, expected) => {
    expect(parseTags(input)).toEqual(expected);
  });

  it('accepts a list and splits entries that hold commas', () => {
    expect(parseTags(['a, b', ' c '])).toEqual(['a', 'b', 'c']);
  });

  it('round-trips through the text field', () => {
    expect(parseTags(formatTags(['one', 'two']))).toEqual(['one', 'two']);
  });
});
