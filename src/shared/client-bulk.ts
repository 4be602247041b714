import { z } from 'zod';
import { anyTagsSchema, clientIdSchema, tagsSchema } from './clients.ts';

/**
 * Most clients one bulk request may name: the 10,000-client list selected whole. Also keeps one
 * request's transaction, and the events it writes, bounded.
 */
export const BULK_MAX_IDS = 10_000;

/** The selected clients: at least one, each once. */
export const bulkIdsSchema = z
  .array(clientIdSchema)
  .min(1, 'Select at least one client')
  // Written out: toLocaleString would load ICU's locale data, megabytes of resident memory on
  // the server, for one message. The test of the limit sends BULK_MAX_IDS + 1 ids.
  .max(BULK_MAX_IDS, 'At most 10,000 clients at once')
  .refine((ids) => new Set(ids).size === ids.length, 'Each client may be named only once');

/** Tags to add: the form's tag rules (a list or "a, b" text), and at least one. */
export const bulkTagListSchema = tagsSchema.pipe(
  z.array(z.string()).min(1, 'Give at least one tag'),
);

/**
 * Tags to remove: any tag, so that one stored before a rule of the form's (a leading '-') can
 * still be taken off.
 */
export const bulkTagRemovalSchema = anyTagsSchema.pipe(
  z.array(z.string()).min(1, 'Give at least one tag'),
);

/**
 * `POST /api/clients/bulk/tags`: `add` appends the tags a client lacks (after its own, so its
 * first tag, the deploy server selector, stays first); `remove` takes them off. One of the two.
 */
export const bulkTagsSchema = z
  .object({
    ids: bulkIdsSchema,
    add: bulkTagListSchema.optional(),
    remove: bulkTagRemovalSchema.optional(),
  })
  .superRefine((body, context) => {
    if ((body.add === undefined) === (body.remove === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [body.add === undefined ? 'add' : 'remove'],
        message: 'Give either tags to add or tags to remove',
      });
    }
  });
export type BulkTagsInput = z.input<typeof bulkTagsSchema>;

/** `POST /api/clients/bulk/delete` and `POST /api/clients/bulk/restore` (the Undo of it). */
export const bulkIdsBodySchema = z.object({ ids: bulkIdsSchema });
export type BulkIdsInput = z.input<typeof bulkIdsBodySchema>;

/**
 * A bulk write's answer: the clients it wrote (a tag change leaves out those it did not
 * change, which get no event either).
 */
export const bulkResultSchema = z.object({ changed: z.array(z.string()) });
export type BulkResult = z.infer<typeof bulkResultSchema>;

/** `POST /api/clients/export`: the selected clients only, with passwords when `secrets`. */
export const exportSelectionSchema = z.object({
  ids: bulkIdsSchema,
  secrets: z.boolean('Must be true or false').default(false),
});
export type ExportSelection = z.input<typeof exportSelectionSchema>;

/** The tags a client has after a bulk change, in their order. */
export function applyTagChange(
  tags: readonly string[],
  change: { add?: readonly string[] | undefined; remove?: readonly string[] | undefined },
): string[] {
  if (change.add) return [...tags, ...change.add.filter((tag) => !tags.includes(tag))];
  const removed = new Set(change.remove ?? []);
  return tags.filter((tag) => !removed.has(tag));
}
