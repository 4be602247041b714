/**
 * `items` in runs of at most `size`: ids for one `in (…)` list, rows for one insert, each well
 * under the bound-parameter limits of both databases.
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
