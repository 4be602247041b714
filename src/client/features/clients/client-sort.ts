import type { IndexedClient } from '#shared/client-search.ts';
import type { ClientSummary } from '#shared/clients.ts';

/**
 * The list's order, kept in the URL as `?sort=` beside `?q=`: `name`, `code`, `start` (start
 * date) or `changed` (last change), with a leading `-` for descending. Without it the list is
 * in the order the server sends, which is the order the clients were added in.
 */
export const SORT_KEYS = ['name', 'code', 'start', 'changed'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface ClientSort {
  key: SortKey;
  descending: boolean;
}

/** The fields the sort reads; the summary and the full client both have them. */
export type SortableClient = Pick<ClientSummary, 'name' | 'code' | 'startDate' | 'updatedAt'>;

/** `?sort=`'s value read; anything unknown is the default order (null). */
export function parseSort(param: string | null): ClientSort | null {
  if (param === null) return null;
  const descending = param.startsWith('-');
  const key = descending ? param.slice(1) : param;
  return (SORT_KEYS as readonly string[]).includes(key)
    ? { key: key as SortKey, descending }
    : null;
}

/** The value of `?sort=` for `sort`; null (no parameter) for the default order. */
export function sortParam(sort: ClientSort | null): string | null {
  return sort === null ? null : `${sort.descending ? '-' : ''}${sort.key}`;
}

// Case and accents are ignored ("émile" sits with "Emile") and numbers go by value
// ("Client 9" before "Client 10"), as people read a list of names. Names are folded once before
// (searchIndex): the collator compares plain ASCII many times faster, and at ten thousand
// accented names that is most of a sort's cost. The search index has them folded already.
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function textOf({ client, name, code }: IndexedClient<SortableClient>, key: SortKey): string {
  switch (key) {
    case 'name':
      return name.trim();
    case 'code':
      return code.trim();
    case 'start':
      return client.startDate;
    case 'changed':
      return client.updatedAt;
  }
}

/**
 * The positions of the clients of `index` (see searchIndex) in the order `sort` asks for. A client without the value sorted
 * on (no name, code or start date) comes last in either direction; equal values keep the
 * default order (the sort is stable). Dates are ISO text, so they compare as text; names and
 * codes, folded, through the collator.
 */
export function sortOrder(
  index: readonly IndexedClient<SortableClient>[],
  sort: ClientSort,
): number[] {
  const values = index.map((indexed) => textOf(indexed, sort.key));
  const compareText =
    sort.key === 'name' || sort.key === 'code'
      ? collator.compare
      : (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const direction = sort.descending ? -1 : 1;
  const positions = values.map((_, i) => i);
  positions.sort((a, b) => {
    const x = values[a]!;
    const y = values[b]!;
    if (x === '' || y === '') return x === y ? 0 : x === '' ? 1 : -1;
    return direction * compareText(x, y);
  });
  return positions;
}
