import type { z } from 'zod';
import type { ApiErrorCode } from '#shared/api-error.ts';

/**
 * An error with a status and a message meant for the user; `fields` name the bad inputs, `code`
 * tells the web app which kind of refusal it is when it must act on it.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;
  readonly code: ApiErrorCode | undefined;

  constructor(
    statusCode: number,
    message: string,
    details: { fields?: Record<string, string>; code?: ApiErrorCode } = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.fields = details.fields;
    this.code = details.code;
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
  throw invalidInput(result.error.issues, what);
}

/** The 400 for input that failed its schema: each bad field by its dotted path, first message. */
export function invalidInput(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  what: string,
): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || what;
    fields[key] ??= issue.message;
  }
  const named = Object.entries(fields)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  return new HttpError(400, `Invalid ${what}: ${named}`, { fields });
}
