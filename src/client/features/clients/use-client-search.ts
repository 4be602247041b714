import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { withQuery } from './search-text.ts';

/**
 * The list's search text lives in the URL (`?q=`), so a reload or a shared link keeps the
 * filter. Typing replaces the history entry instead of adding one per key.
 */
export function useClientSearch(): [string, (next: string) => void] {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const setQuery = useCallback(
    (next: string) =>
      setParams((current) => new URLSearchParams(withQuery(current.toString(), next)), {
        replace: true,
      }),
    [setParams],
  );
  return [query, setQuery];
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
          search: query === undefined ? search : withQuery(search, query),
        },
        options,
      ),
    [navigate, search],
  );
}
