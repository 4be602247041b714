import type { z } from 'zod';
import { isStorableText, STORABLE_MESSAGE } from '#shared/clients.ts';

/**
 * Where `value` holds text no database here can store (NUL, which PostgreSQL refuses in text
 * and in comparisons, or a lone UTF-16 surrogate, which has no UTF-8 form), keys included.
 * Walked with a list, not recursion: a body may be nested as deep as JSON allows.
 */
export function unstorablePaths(value: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: here, path } = next;
    if (typeof here === 'string') {
      if (!isStorableText(here)) found.push(path);
    } else if (Array.isArray(here)) {
      here.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    } else if (typeof here === 'object' && here !== null) {
      for (const [key, item] of Object.entries(here)) {
        if (!isStorableText(key)) found.push([...path, key]);
        else pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return found;
}

/**
 * A route's schema that also refuses unstorable text in whatever it accepted, so that a field
 * without its own check is a 400 naming it rather than a database error. Only what the schema
 * let through is looked at: a field it drops does not matter.
 */
export function storableInput(schema: z.ZodType): z.ZodType {
  return schema.superRefine((value, context) => {
    for (const path of unstorablePaths(value)) {
      context.addIssue({ code: 'custom', path, message: STORABLE_MESSAGE });
    }
  });
}
