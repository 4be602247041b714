import { describe, expect, it } from 'vitest';
import { searchTextFrom, sentToUrl, typed, urlChanged, withParam } from './search-text.ts';

/** Types `text` one key at a time from the current text. */
function typeKeys(state: ReturnType<typeof searchTextFrom>, text: string) {
  let next = state;
  for (const key of text) next = typed(next, next.text + key);
  return next;
}

describe('search text and the URL', () => {
  it('keeps the keys typed while its own earlier write reaches the URL', () => {
    let state = typeKeys(searchTextFrom(''), 'ab');
    state = sentToUrl(state, state.text);
    state = typeKeys(state, 'cd');
    state = urlChanged(state, 'ab');
    expect(state.text).toBe('abcd');
    state = sentToUrl(state, state.text);
    state = urlChanged(state, 'abcd');
    expect(state).toEqual({ text: 'abcd', url: 'abcd', sent: [] });
  });

  it('takes the URL when it changes by another hand (a tag chip, back or forward)', () => {
    let state = sentToUrl(typeKeys(searchTextFrom(''), 'abc'), 'abc');
    state = urlChanged(state, 'abc');
    state = urlChanged(state, 'tag:shop');
    expect(state).toEqual({ text: 'tag:shop', url: 'tag:shop', sent: [] });
  });

  it('skips writes that arrived out of sight, and forgets them once a later one lands', () => {
    let state = searchTextFrom('');
    state = sentToUrl(typeKeys(state, 'a'), 'a');
    state = sentToUrl(typeKeys(state, 'b'), 'ab');
    state = urlChanged(state, 'ab');
    expect(state.sent).toEqual([]);
    state = urlChanged(state, 'a');
    expect(state.text).toBe('a');
  });

  it('owes nothing for a write of what the URL already holds', () => {
    const state = searchTextFrom('shop');
    expect(sentToUrl(state, 'shop')).toBe(state);
    const pending = sentToUrl(state, 'shops');
    expect(sentToUrl(pending, 'shops').sent).toEqual(['shops']);
    expect(sentToUrl(pending, 'shop').sent).toEqual(['shops', 'shop']);
  });

  it('puts the query in a location search and takes it out when empty', () => {
    expect(withParam('', 'q', 'café bar')).toBe('?q=caf%C3%A9+bar');
    expect(withParam('?q=old&view=table', 'q', 'new')).toBe('?q=new&view=table');
    expect(withParam('?q=old', 'q', '')).toBe('');
  });

  it('puts the order beside the query and takes it out for the default', () => {
    expect(withParam('?q=shop', 'sort', '-name')).toBe('?q=shop&sort=-name');
    expect(withParam('?q=shop&sort=-name', 'sort', 'code')).toBe('?q=shop&sort=code');
    expect(withParam('?q=shop&sort=code', 'sort', null)).toBe('?q=shop');
    expect(withParam('?sort=code', 'q', 'a')).toBe('?sort=code&q=a');
  });
});
