/**
 * The search box's text and the URL's `?q=` kept in step. The text is the box's own state and
 * the URL follows it a little later; `sent` holds what was written to the URL and has not come
 * back yet. A URL change that is one of those is our own write arriving: the box, which may
 * have moved on by then, keeps its text. Any other change (a tag chip, back or forward) is the
 * user's and replaces the text.
 */
export interface SearchText {
  readonly text: string;
  readonly url: string;
  readonly sent: readonly string[];
}

export function searchTextFrom(url: string): SearchText {
  return { text: url, url, sent: [] };
}

export function typed(state: SearchText, text: string): SearchText {
  return { ...state, text };
}

/** A write of `value` to the URL; none is owed when the URL will already hold it. */
export function sentToUrl(state: SearchText, value: string): SearchText {
  const upcoming = state.sent.at(-1) ?? state.url;
  return value === upcoming ? state : { ...state, sent: [...state.sent, value] };
}

export function urlChanged(state: SearchText, url: string): SearchText {
  if (url === state.url) return state;
  const echo = state.sent.indexOf(url);
  if (echo >= 0) return { ...state, url, sent: state.sent.slice(echo + 1) };
  return searchTextFrom(url);
}

/**
 * `search` (a location's `?…`) with the list's parameter `name` (`q` for the search text, `sort`
 * for the order) set to `value`, or without it when `value` is empty or null.
 */
export function withParam(search: string, name: 'q' | 'sort', value: string | null): string {
  const params = new URLSearchParams(search);
  if (value === null || value === '') params.delete(name);
  else params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
