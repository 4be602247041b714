import { z } from 'zod';

/**
 * Every 4xx/5xx body of our API. `fields` maps a dotted field path (as the form names it,
 * e.g. `server.port` or `domains.0`) to the message shown next to that field.
 */
export const apiErrorSchema = z.object({
  error: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
