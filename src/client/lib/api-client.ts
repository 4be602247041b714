import type { z } from 'zod';
import { apiErrorSchema } from '#shared/api-error.ts';

/** A failed API call, carrying what the server said so the UI can show it where it belongs. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  readonly status: number;
  /** Dotted field path (as the forms name them) → message. */
  readonly fields: Record<string, string>;
  /** The kind of refusal, when the server names one (e.g. ACCOUNT_DISABLED). */
  readonly code: string | undefined;

  constructor(status: number, message: string, fields: Record<string, string> = {}, code?: string) {
    super(message);
    this.status = status;
    this.fields = fields;
    this.code = code;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiRequestError {
  return error instanceof ApiRequestError && (status === undefined || error.status === status);
}

/** Status 0 stands for "no answer at all": offline, server down, request blocked. */
export const NETWORK_ERROR_STATUS = 0;

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong. Try again.';
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(
      NETWORK_ERROR_STATUS,
      'Cannot reach the server. Check your connection and try again.',
    );
  }
  if (!response.ok) throw await toError(response);
  return response;
}

/** The error a failed response stands for, with the message and fields the server sent. */
export async function toError(response: Response): Promise<ApiRequestError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = apiErrorSchema.safeParse(body);
  if (parsed.success) {
    return new ApiRequestError(
      response.status,
      parsed.data.error,
      parsed.data.fields,
      parsed.data.code,
    );
  }
  const fallback =
    response.status >= 500
      ? 'Something went wrong on the server. Try again.'
      : `The request failed (${response.status}).`;
  return new ApiRequestError(response.status, fallback);
}

/**
 * Calls our JSON API and checks the answer against the shared schema, so a server that
 * answers something unexpected fails here with a clear message instead of deep in a component.
 */
export async function apiRequest<S extends z.ZodType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const response = await send(path, options);
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    console.error('Unexpected response from', path, parsed.error);
    throw new ApiRequestError(response.status, 'The server sent an unexpected response.');
  }
  return parsed.data;
}

/** For calls answered with 204 No Content. */
export async function apiSend(path: string, options: RequestOptions): Promise<void> {
  await send(path, options);
}
