import { describe, expect, it } from 'vitest';
import { applyTagChange, bulkIdsSchema, bulkTagsSchema } from './client-bulk.ts';

describe('applyTagChange', () => {
  it('adds after the client’s own tags, keeping the first (the deploy server) first', () => {
    expect(applyTagChange(['eu', 'web'], { add: ['vip', 'web'] })).toEqual(['eu', 'web', 'vip']);
    expect(applyTagChange([], { add: ['vip'] })).toEqual(['vip']);
  });

  it('removes every given tag, wherever it is, and leaves the order of the rest', () => {
    expect(applyTagChange(['eu', 'vip', 'web'], { remove: ['eu', 'absent'] })).toEqual([
      'vip',
      'web',
    ]);
  });
});

describe('bulkTagsSchema', () => {
  it('reads tags as the form does: a list or comma text, trimmed, each once', () => {
    expect(bulkTagsSchema.parse({ ids: ['a'], add: ' x , y, x' })).toEqual({
      ids: ['a'],
      add: ['x', 'y'],
    });
  });

  it('names add or remove when neither or both are given', () => {
    const neither = bulkTagsSchema.safeParse({ ids: ['a'] });
    expect(neither.error?.issues.map((i) => i.path)).toEqual([['add']]);
    const both = bulkTagsSchema.safeParse({ ids: ['a'], add: ['x'], remove: ['y'] });
    expect(both.error?.issues.map((i) => i.path)).toEqual([['remove']]);
  });
});

describe('bulkIdsSchema', () => {
  it('takes 1 to 10,000 ids, each once', () => {
    expect(bulkIdsSchema.safeParse(['a', 'b']).success).toBe(true);
    expect(bulkIdsSchema.safeParse([]).success).toBe(false);
    expect(bulkIdsSchema.safeParse(['a', 'a']).success).toBe(false);
    const most = Array.from({ length: 10_000 }, (_, i) => `c${i}`);
    expect(bulkIdsSchema.safeParse(most).success).toBe(true);
    expect(bulkIdsSchema.safeParse([...most, 'one-more']).success).toBe(false);
  });
});
