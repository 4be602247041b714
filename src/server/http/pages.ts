import type { PageQuery } from '#shared/pages.ts';
import { DEFAULT_PAGE_SIZE } from '#shared/pages.ts';
import { HttpError } from './http-error.ts';

/** What a paged list is ordered by: a record's id, or an event's sequence number. */
type PageKey = string | number;

/** Whether a list request asked for a page (`limit` or `cursor`) rather than the whole list. */
export function wantsPage(query: PageQuery): boolean {
  return query.limit !== undefined || query.cursor !== undefined;
}

/**
 * A list route's answer: the whole list as it is, or the page the query asked for, with the
 * cursor of the next one.
 */
export function listPage<T>(
  items: readonly T[],
  query: PageQuery,
  keyOf: (item: T) => PageKey,
): { items: T[]; nextCursor?: string | null } {
  return wantsPage(query) ? pageOf(items, query, keyOf) : { items: [...items] };
}

/**
 * One page of a list that is already filtered to what the person may see: the records after
 * the cursor's key, in key order, and the cursor of the next page. Paging in memory keeps every
 * list route's own filters and access rules as they are; the lists are the size of a team's
 * records (the audit trail and webhook deliveries, which grow without end, page in the
 * database).
 */
export function pageOf<T>(
  items: readonly T[],
  query: PageQuery,
  keyOf: (item: T) => PageKey,
): { items: T[]; nextCursor: string | null } {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const sorted = items
    .map((item) => ({ item, key: keyOf(item) }))
    .filter(({ key }) => after === undefined || key > after)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const page = sorted.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(({ item }) => item),
    nextCursor: sorted.length > limit && last !== undefined ? encodeCursor(last.key) : null,
  };
}

function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): PageKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  // A cursor is a key we made: anything else was not given by us.
  const ours =
    (typeof key === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(key)) ||
    (typeof key === 'number' && Number.isSafeInteger(key));
  if (!ours || encodeCursor(key as PageKey) !== cursor) {
    const message = 'Must be the nextCursor of an earlier page';
    throw new HttpError(400, `Invalid query: cursor: ${message}`, { fields: { cursor: message } });
  }
  return key as PageKey;
}
