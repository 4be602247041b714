import { useCallback, useEffect, useRef, useState } from 'react';
import { useClientSearch } from './use-client-search.ts';
import { searchTextFrom, sentToUrl, typed, urlChanged } from './search-text.ts';

const URL_WRITE_DELAY_MS = 200;

export interface SearchTextControl {
  text: string;
  setText: (next: string) => void;
  /**
   * Before a navigation that carries the text in its own URL: the delayed write is dropped
   * (it would land on the page just left) and the navigation counts as that write.
   */
  settle: () => string;
}

/**
 * The search box's text. It is the input's own state, because the URL (written through the
 * router, in a transition) lags behind fast typing and would drop keys; the URL follows after
 * a short pause, and a change made there (a tag chip, back/forward) comes into the box.
 */
export function useSearchText(): SearchTextControl {
  const [urlQuery, setUrlQuery] = useClientSearch();
  const [state, setState] = useState(() => searchTextFrom(urlQuery));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // After the commit, folded into the latest state: done while rendering the router's
  // transition, it would be measured against a text that has not seen the keys typed meanwhile
  // (e2e/find.spec.ts, "keys typed while the URL catches up").
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the URL is outside React's state
  useEffect(() => setState((s) => urlChanged(s, urlQuery)), [urlQuery]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const send = useCallback(
    (value: string) => {
      setState((s) => sentToUrl(s, value));
      setUrlQuery(value);
    },
    [setUrlQuery],
  );
  const setText = useCallback(
    (next: string) => {
      setState((s) => typed(s, next));
      clearTimeout(timer.current);
      if (next === '') send('');
      else timer.current = setTimeout(() => send(next), URL_WRITE_DELAY_MS);
    },
    [send],
  );
  const text = state.text;
  const settle = useCallback(() => {
    clearTimeout(timer.current);
    setState((s) => sentToUrl(s, text));
    return text;
  }, [text]);
  return { text, setText, settle };
}
