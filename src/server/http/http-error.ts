import type { z } from 'zod';

/** An error with a status and a message meant for the user; `fields` name the bad inputs. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;

  constructor(statusCode: number, message: string, fields?: Record<string, string>) {
    super(message);
    this.statusCode = statusCode;
    this.fields = fields;
  }
}

/** Parses input with a shared schema; failure is a 400 naming each bad field by its path. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what = 'body',
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || what;
    fields[key] ??= issue.message;
  }
  const named = Object.entries(fields)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  throw new HttpError(400, `Invalid ${what}: ${named}`, fields);
}
