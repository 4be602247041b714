import { z } from 'zod';

/**
 * Cursor pagination of a list route, for scripts: `?limit=` asks for at most that many, and
 * the answer's `nextCursor` is given back as `?cursor=` for the next page (null on the last).
 * A paged list is in the order of its records' ids (a history: its events' sequence numbers),
 * so a page never shifts when records are added or removed elsewhere in the list. Without
 * `limit` or `cursor` a route answers its whole list, in its own order, as the web app reads it.
 */
export const pageQuerySchema = z.object({
  cursor: z
    .string()
    .max(200, 'At most 200 characters')
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be the nextCursor of an earlier page')
    .optional(),
  limit: z.coerce
    .number('Must be a number')
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(500, 'At most 500')
    .optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** The cursor of the next page; null on the last. Only in a paged answer. */
export const nextCursorSchema = z.string().nullable().optional();

/** The page size when a cursor comes without a limit. */
export const DEFAULT_PAGE_SIZE = 100;
