import { describe, expect, it } from 'vitest';
import { NO_SELECTION, clicked, withAll, withoutGone } from './client-selection.ts';

const shown = ['a', 'b', 'c', 'd', 'e'];
const ids = (selection: { ids: ReadonlySet<string> }) => [...selection.ids].sort();

describe('selecting rows', () => {
  it('toggles one box at a time, each click the new anchor', () => {
    let s = clicked(NO_SELECTION, shown, 'b', true, false);
    s = clicked(s, shown, 'd', true, false);
    expect(ids(s)).toEqual(['b', 'd']);
    expect(s.anchor).toBe('d');
    s = clicked(s, shown, 'b', false, false);
    expect(ids(s)).toEqual(['d']);
  });

  it('sets the range from the anchor to a Shift-clicked row, either way', () => {
    let s = clicked(NO_SELECTION, shown, 'b', true, false);
    s = clicked(s, shown, 'd', true, true);
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    // The anchor stays: Shift-clicking upwards takes the range from it the other way.
    s = clicked(s, shown, 'a', true, true);
    expect(ids(s)).toEqual(['a', 'b', 'c', 'd']);
    // Shift-clicking a selected row clears the range to it.
    s = clicked(s, shown, 'c', false, true);
    expect(ids(s)).toEqual(['a', 'd']);
  });

  it('takes a Shift-click without an anchor in view as a plain click', () => {
    const s = clicked(NO_SELECTION, shown, 'c', true, true);
    expect(ids(s)).toEqual(['c']);
    const filtered = clicked({ ids: new Set(['x']), anchor: 'x' }, shown, 'e', true, true);
    expect(ids(filtered)).toEqual(['e', 'x']);
    expect(filtered.anchor).toBe('e');
  });

  it('selects every row shown, keeping those already selected out of view', () => {
    const s = withAll({ ids: new Set(['x']), anchor: null }, ['a', 'b']);
    expect(ids(s)).toEqual(['a', 'b', 'x']);
  });

  it('forgets clients that are gone, and is unchanged when none is', () => {
    const s = { ids: new Set(['a', 'b', 'c']), anchor: 'b' };
    const exists = (id: string) => id !== 'b';
    expect(ids(withoutGone(s, exists))).toEqual(['a', 'c']);
    expect(withoutGone(s, exists).anchor).toBeNull();
    expect(withoutGone(s, () => true)).toBe(s);
  });
});
