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

/**
 * Lower case without diacritics, so comparisons ignore case and accents; ligatures and wide
 * forms as their letters (NFKD), and the letters that do not decompose as they are typed
 * without them ("lodz" finds "Łódź", "strasse" "Straße").
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en')
    .replace(/[ßłøđæœı]/gu, (letter) => LETTERS[letter]!);
}

const LETTERS: Record<string, string> = {
  ß: 'ss',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
};

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

/** A client with its searchable fields folded once (see searchIndex). */
export interface IndexedClient<T> {
  client: T;
  tags: string[];
  fields: string[];
  /** The folded name and code, which the list also sorts by. */
  name: string;
  code: string;
}

function indexClient<T extends SearchableClient>(client: T): IndexedClient<T> {
  const tags = client.tags.map(foldForSearch);
  const fields = [client.name, client.code, client.description, client.server.host]
    .map(foldForSearch)
    .concat(tags);
  return { client, tags, fields, name: fields[0]!, code: fields[1]! };
}

/**
 * The clients with their fields folded once, for searching them many times: folding is most
 * of the work, and a search box filters the same list on every keystroke (the 50 ms
 * keystroke target at ten thousand clients: docs/performance.md).
 */
export function searchIndex<T extends SearchableClient>(clients: readonly T[]): IndexedClient<T>[] {
  return clients.map(indexClient);
}

function matchesTerms(indexed: IndexedClient<unknown>, terms: readonly SearchTerm[]): boolean {
  return terms.every((term) =>
    term.kind === 'tag'
      ? indexed.tags.includes(term.value)
      : indexed.fields.some((field) => field.includes(term.value)),
  );
}

export function matchesSearch(client: SearchableClient, terms: readonly SearchTerm[]): boolean {
  return terms.length === 0 || matchesTerms(indexClient(client), terms);
}

/** The indexed clients that match `query`, in their original order. */
export function filterIndexed<T>(index: readonly IndexedClient<T>[], query: string): T[] {
  const terms = parseSearch(query);
  const matches: T[] = [];
  for (const indexed of index) {
    if (terms.length === 0 || matchesTerms(indexed, terms)) matches.push(indexed.client);
  }
  return matches;
}

/** The clients that match `query`, in their original order. */
export function filterClients<T extends SearchableClient>(
  clients: readonly T[],
  query: string,
): T[] {
  const terms = parseSearch(query);
  if (terms.length === 0) return [...clients];
  return clients.filter((client) => matchesTerms(indexClient(client), terms));
}
