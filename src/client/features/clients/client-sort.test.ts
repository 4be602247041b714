import { describe, expect, it } from 'vitest';
import { searchIndex } from '#shared/client-search.ts';
import type { ClientSummary } from '#shared/clients.ts';
import { parseSort, sortOrder, sortParam, type ClientSort } from './client-sort.ts';

function client(fields: Partial<ClientSummary> & { id: string }): ClientSummary {
  return {
    name: '',
    code: '',
    description: '',
    tags: [],
    startDate: '',
    updatedAt: '2026-01-01T00:00:00.000Z',
    updatedBy: null,
    server: { host: '' },
    ...fields,
  };
}

function sorted(clients: ClientSummary[], sort: ClientSort): string[] {
  return sortOrder(searchIndex(clients), sort).map((i) => clients[i]!.id);
}

describe('the order of the list', () => {
  it('reads ?sort= and writes it back, the default order being no parameter', () => {
    expect(parseSort(null)).toBeNull();
    expect(parseSort('name')).toEqual({ key: 'name', descending: false });
    expect(parseSort('-changed')).toEqual({ key: 'changed', descending: true });
    expect(parseSort('size')).toBeNull();
    expect(parseSort('--name')).toBeNull();
    expect(parseSort('')).toBeNull();
    for (const param of ['name', '-name', 'code', '-code', 'start', '-start', 'changed']) {
      expect(sortParam(parseSort(param))).toBe(param);
    }
    expect(sortParam(null)).toBeNull();
  });

  it('sorts names ignoring case and accents, numbers by value', () => {
    const clients = [
      client({ id: 'zoe', name: 'zoé' }),
      client({ id: 'emile', name: 'Émile' }),
      client({ id: 'eve', name: 'eve' }),
      client({ id: 'c10', name: 'Client 10' }),
      client({ id: 'c9', name: 'Client 9' }),
    ];
    expect(sorted(clients, { key: 'name', descending: false })).toEqual([
      'c9',
      'c10',
      'emile',
      'eve',
      'zoe',
    ]);
    expect(sorted(clients, { key: 'name', descending: true })).toEqual([
      'zoe',
      'eve',
      'emile',
      'c10',
      'c9',
    ]);
  });

  it('puts clients without the value last in both directions, keeping their order', () => {
    const clients = [
      client({ id: 'none-1' }),
      client({ id: 'late', startDate: '2025-03-01', code: 'B' }),
      client({ id: 'none-2' }),
      client({ id: 'early', startDate: '2019-12-31', code: 'a' }),
    ];
    expect(sorted(clients, { key: 'start', descending: false })).toEqual([
      'early',
      'late',
      'none-1',
      'none-2',
    ]);
    expect(sorted(clients, { key: 'start', descending: true })).toEqual([
      'late',
      'early',
      'none-1',
      'none-2',
    ]);
    expect(sorted(clients, { key: 'code', descending: false })).toEqual([
      'early',
      'late',
      'none-1',
      'none-2',
    ]);
  });

  it('keeps the default order among equal values, and sorts by the time of the last change', () => {
    const clients = [
      client({ id: 'a', name: 'Same', updatedAt: '2026-02-01T10:00:00.000Z' }),
      client({ id: 'b', name: 'same', updatedAt: '2026-03-01T09:00:00.000Z' }),
      client({ id: 'c', name: 'SAME', updatedAt: '2026-01-15T23:59:59.999Z' }),
    ];
    expect(sorted(clients, { key: 'name', descending: false })).toEqual(['a', 'b', 'c']);
    expect(sorted(clients, { key: 'name', descending: true })).toEqual(['a', 'b', 'c']);
    expect(sorted(clients, { key: 'changed', descending: true })).toEqual(['b', 'a', 'c']);
    expect(sorted(clients, { key: 'changed', descending: false })).toEqual(['c', 'a', 'b']);
  });
});
