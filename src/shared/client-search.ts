/**
 * Finding clients by what staff remember of them: a word of the name, the code, a tag, the
 * description or the host. Case and accents are ignored ("creme" finds "Crème"). Every word
 * of the query must match (AND). `tag:eu-west-1` (or `tag:"two words"`) matches one tag
 * exactly, which is what clicking a tag chip puts in the search box.
 */

/** The fields of a client the search reads; the full client satisfies it. */
export interface SearchableClient {
  name: string;
  code: string;
  description: string;
  tags: readonly string[];
  server: { host: string };
}

export interface SearchTerm {
  kind: 'text' | 'tag';
  value: string;
}

/** Lower case without diacritics, so comparisons ignore case and accents. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');
}

const TERM = /(tag:)?(?:"([^"]*)"?|(\S+))/giu;

export function parseSearch(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const match of query.matchAll(TERM)) {
    const value = foldForSearch((match[2] ?? match[3] ?? '').trim());
    if (value === '') continue;
    terms.push({ kind: match[1] ? 'tag' : 'text', value });
  }
  return terms;
}

/** The query that selects exactly one tag, quoted when the tag has spaces or quotes. */
export function tagQuery(tag: string): string {
  return /[\s"]/u.test(tag) ? `tag:"${tag.replaceAll('"', '')}"` : `tag:${tag}`;
}

export function matchesSearch(client: SearchableClient, terms: readonly SearchTerm[]): boolean {
  if (terms.length === 0) return true;
  const tags = client.tags.map(foldForSearch);
  const haystack = [client.name, client.code, client.description, client.server.host]
    .map(foldForSearch)
    .concat(tags);
  return terms.every((term) =>
    term.kind === 'tag'
      ? tags.includes(term.value)
      : haystack.some((field) => field.includes(term.value)),
  );
}

/** The clients that match `query`, in their original order. */
export function filterClients<T extends SearchableClient>(
  clients: readonly T[],
  query: string,
): T[] {
  const terms = parseSearch(query);
  return clients.filter((client) => matchesSearch(client, terms));
}
