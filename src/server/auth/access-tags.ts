/**
 * The stored tag limit: a JSON array of tags, or null for every client. Anything else (a value
 * written some other way) limits to no client at all rather than lifting the limit.
 */
export function parseAccessTags(stored: string | null | undefined): readonly string[] | null {
  if (stored === null || stored === undefined) return null;
  try {
    const value: unknown = JSON.parse(stored);
    if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) return value;
  } catch {
    // Falls through to the narrowest reading.
  }
  return [];
}
