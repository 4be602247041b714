import { describe, expect, it } from 'vitest';
import {
  filterClients,
  filterIndexed,
  foldForSearch,
  parseSearch,
  searchIndex,
  tagQuery,
} from './client-search.ts';

const client = (name: string, extra: Partial<{ code: string; tags: string[]; host: string }>) => ({
  name,
  code: extra.code ?? '',
  description: `About ${name}`,
  tags: extra.tags ?? [],
  server: { host: extra.host ?? '' },
});

const clients = [
  client('Crème Brûlée Café', {
    code: 'CBC',
    tags: ['eu-west-1', 'shop'],
    host: 'cafe.example.com',
  }),
  client('Acme Hosting', { code: 'ACME', tags: ['us-east', 'web shop'], host: '10.0.0.7' }),
  client('Zebra', { code: 'ZB', tags: ['shop-eu'] }),
];
const names = (query: string) => filterClients(clients, query).map((c) => c.name);

describe('filterClients', () => {
  it('keeps everything, in order, for an empty or blank query', () => {
    expect(names('')).toEqual(['Crème Brûlée Café', 'Acme Hosting', 'Zebra']);
    expect(names('   ')).toHaveLength(3);
  });

  it.each([
    ['creme', ['Crème Brûlée Café']],
    ['BRÛLÉE', ['Crème Brûlée Café']],
    ['acme', ['Acme Hosting']],
    ['zb', ['Zebra']],
    ['10.0.0', ['Acme Hosting']],
    ['cafe.example', ['Crème Brûlée Café']],
    ['about zebra', ['Zebra']],
    ['shop', ['Crème Brûlée Café', 'Acme Hosting', 'Zebra']],
    ['east', ['Acme Hosting']],
    ['nothing-like-this', []],
  ])('%j finds %j (name, code, host, description, tags)', (query, expected) => {
    expect(names(query)).toEqual(expected);
  });

  it('tag: matches one tag exactly, quoted when it has spaces', () => {
    expect(names('tag:shop')).toEqual(['Crème Brûlée Café']);
    expect(names('tag:"web shop"')).toEqual(['Acme Hosting']);
    expect(names('TAG:EU-WEST-1')).toEqual(['Crème Brûlée Café']);
    expect(names(`${tagQuery('web shop')} acme`)).toEqual(['Acme Hosting']);
  });
});

describe('parseSearch', () => {
  it('splits words, folds case and accents, and reads tag: terms', () => {
    expect(parseSearch(' Él  tag:"A b" tag:x "q r" ')).toEqual([
      { kind: 'text', value: 'el' },
      { kind: 'tag', value: 'a b' },
      { kind: 'tag', value: 'x' },
      { kind: 'text', value: 'q r' },
    ]);
    expect(parseSearch('tag:')).toEqual([{ kind: 'text', value: 'tag:' }]);
  });

  it('folds combining marks away', () => {
    expect(foldForSearch('ÅNGSTRÖM Ça')).toBe('angstrom ca');
  });

  it('folds letters that do not decompose, ligatures and wide forms as staff would type them', () => {
    for (const [stored, typed] of [
      ['Łódź', 'lodz'],
      ['Straße', 'strasse'],
      ['ﬁnance', 'finance'],
      ['Ｆｕｌｌｗｉｄｔｈ', 'fullwidth'],
      ['Ørsted Æble Œuvre', 'orsted aeble oeuvre'],
      ['Đakovo', 'dakovo'],
      ['Diyarbakır', 'diyarbakir'],
    ]) {
      expect(foldForSearch(stored!), stored).toBe(foldForSearch(typed!));
    }
    expect(filterClients([client('Straße 5', {})], 'strasse')).toHaveLength(1);
    expect(filterClients([client('Strasse 5', {})], 'straße')).toHaveLength(1);
  });

  it('quotes tags with spaces', () => {
    expect(tagQuery('eu')).toBe('tag:eu');
    expect(tagQuery('a b')).toBe('tag:"a b"');
  });
});

describe('filterIndexed', () => {
  it.each(['', 'creme', 'tag:shop', 'shop eu', 'acme 10.0', 'nothing'])(
    'answers %j as filterClients does',
    (query) => {
      expect(filterIndexed(searchIndex(clients), query)).toEqual(filterClients(clients, query));
    },
  );
});
