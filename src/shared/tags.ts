/**
 * Tags are typed as one comma-separated field (as in the original tool) and kept as a list.
 * The first tag is the deploy server selector, so order is preserved and duplicates dropped.
 */
export function parseTags(input: string | readonly string[]): string[] {
  const parts = typeof input === 'string' ? input.split(',') : input.flatMap((t) => t.split(','));
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (tag !== '' && !seen.has(tag)) {
      seen.add(tag);
      tags.push(tag);
    }
  }
  return tags;
}

export function formatTags(tags: readonly string[]): string {
  return tags.join(', ');
}
