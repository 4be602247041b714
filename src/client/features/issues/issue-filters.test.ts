import { describe, expect, it } from 'vitest';
import { filterFromParams, filterToQuery, isNarrowed } from './issue-filters.ts';

const params = (search: string) => new URLSearchParams(search);

describe('filterFromParams', () => {
  it('shows the open issues of everyone by default', () => {
    const filter = filterFromParams(params(''));
    expect(filter).toEqual({ state: 'open', kind: '', assignee: '', q: '' });
    expect(isNarrowed(filter)).toBe(false);
    expect(isNarrowed(filterFromParams(params('state=resolved')))).toBe(false);
  });

  it('reads every filter the address keeps', () => {
    const filter = filterFromParams(params('state=all&kind=problem&assignee=me&q=%20disk%20'));
    expect(filter).toEqual({ state: 'all', kind: 'problem', assignee: 'me', q: 'disk' });
    expect(isNarrowed(filter)).toBe(true);
  });

  it('leaves out what an address cannot mean instead of failing', () => {
    expect(filterFromParams(params('state=closed&kind=bug&assignee=a%20b'))).toEqual({
      state: 'open',
      kind: '',
      assignee: '',
      q: '',
    });
  });

  it('cuts a search to the 200 characters the API takes', () => {
    expect(filterFromParams(params(`q=${'x'.repeat(300)}`)).q).toHaveLength(200);
  });
});

describe('filterToQuery', () => {
  it('asks only for what narrows the list', () => {
    expect(filterToQuery({ state: 'open', kind: '', assignee: '', q: '' })).toEqual({
      state: 'open',
    });
    expect(
      filterToQuery({ state: 'resolved', kind: 'note', assignee: 'person_1', q: 'ssl' }),
    ).toEqual({ state: 'resolved', kind: 'note', assigneeId: 'person_1', q: 'ssl' });
  });
});
