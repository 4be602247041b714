import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

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
