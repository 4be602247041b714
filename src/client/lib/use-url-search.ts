import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';
import { useDebouncedValue } from '@mantine/hooks';

/**
 * A section's search box and filters kept in the URL (`?q=` and others), so a link, a reload or
 * Back keeps them. The box answers every keystroke; `q` is the settled search (250 ms), the one
 * written to the URL and asked of the API. `setParam` sets or clears one filter in place.
 */
export function useUrlSearch(): {
  params: URLSearchParams;
  search: string;
  setSearch: (value: string) => void;
  q: string;
  setParam: (name: string, value: string) => void;
} {
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(() => params.get('q') ?? '');
  const [q] = useDebouncedValue(search.trim(), 250);
  // What the writes under way will leave in the address, until the router shows it. React
  // Router builds a write on the params of the render it comes from and applies it in a
  // transition, so a settled search written before a filter's write showed would drop the
  // filter; each write builds on the last one instead.
  const underWay = useRef<URLSearchParams | null>(null);
  const { key } = useLocation();
  useEffect(() => {
    underWay.current = null;
  }, [key]);
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(underWay.current ?? params);
    if (value) next.set(name, value);
    else next.delete(name);
    underWay.current = next;
    setParams(next, { replace: true });
  };
  // Not while a navigation is under way: written then, the search would replace the page
  // someone just clicked (it loads on demand) with this list again.
  const navigating = useNavigation().state !== 'idle';
  useEffect(() => {
    if (!navigating && (params.get('q') ?? '').trim() !== q) setParam('q', q);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled search is written
  }, [q, navigating]);
  return { params, search, setSearch, q, setParam };
}
