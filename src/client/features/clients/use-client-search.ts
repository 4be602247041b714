import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The list's search text lives in the URL (`?q=`), so a reload or a shared link keeps the
 * filter. Typing replaces the history entry instead of adding one per key.
 */
export function useClientSearch(): [string, (next: string) => void] {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const setQuery = useCallback(
    (next: string) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === '') updated.delete('q');
          else updated.set('q', next);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [query, setQuery];
}

/**
 * Goes to a client (or to none) and keeps the list's search, so saving, duplicating or deleting
 * does not throw away the filter the user was working in.
 */
export function useGoToClient(): (id: string | null, options?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback(
    (id, options) =>
      void navigate(
        { pathname: id === null ? '/' : `/clients/${encodeURIComponent(id)}`, search },
        options,
      ),
    [navigate, search],
  );
}
