/** Ids per `in (…)` list: well under both databases' bound-parameter limits. */
export const IDS_PER_STATEMENT = 500;
/** Rows per multi-row insert of a record's columns, under the same limits. */
export const ROWS_PER_INSERT = 200;

/**
 * `items` in runs of at most `size`: ids for one `in (…)` list, rows for one insert, each well
 * under the bound-parameter limits of both databases.
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
