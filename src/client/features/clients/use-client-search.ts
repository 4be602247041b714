import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { parseSort, sortParam, type ClientSort } from './client-sort.ts';
import { withParam } from './search-text.ts';

/**
 * The list's search text lives in the URL (`?q=`), so a reload or a shared link keeps the
 * filter. Typing replaces the history entry instead of adding one per key.
 */
export function useClientSearch(): [string, (next: string) => void] {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const setQuery = useCallback(
    (next: string) =>
      setParams((current) => new URLSearchParams(withParam(current.toString(), 'q', next)), {
        replace: true,
      }),
    [setParams],
  );
  return [query, setQuery];
}

/**
 * The list's order lives in the URL (`?sort=`) as its search does, so a reload, a shared link
 * and every row opened keep it. A change of order replaces the history entry.
 */
export function useClientSort(): [ClientSort | null, (next: ClientSort | null) => void] {
  const [params, setParams] = useSearchParams();
  const param = params.get('sort');
  const sort = useMemo(() => parseSort(param), [param]);
  const setSort = useCallback(
    (next: ClientSort | null) =>
      setParams(
        (current) => new URLSearchParams(withParam(current.toString(), 'sort', sortParam(next))),
        { replace: true },
      ),
    [setParams],
  );
  return [sort, setSort];
}

/**
 * Goes to a client (or to none) and keeps the list's search, so saving, duplicating or deleting
 * does not throw away the filter the user was working in.
 */
export function useGoToClient(): (
  id: string | null,
  options?: { replace?: boolean; query?: string },
) => void {
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback(
    (id, { query, ...options } = {}) =>
      void navigate(
        {
          pathname: id === null ? '/' : `/clients/${encodeURIComponent(id)}`,
          search: query === undefined ? search : withParam(search, 'q', query),
        },
        options,
      ),
    [navigate, search],
  );
}
