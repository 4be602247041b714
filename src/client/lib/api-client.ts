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
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** The ETag of what the caller has: a 304 then comes back instead of an error. */
  ifNoneMatch?: string;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  // With its own If-None-Match, fetch leaves the browser's cache out and hands over the 304.
  if (options.ifNoneMatch !== undefined) headers['if-none-match'] = options.ifNoneMatch;
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
    if (isAbort(error)) throw error;
    throw new ApiRequestError(
      NETWORK_ERROR_STATUS,
      'Cannot reach the server. Check your connection and try again.',
    );
  }
  if (!response.ok && !(response.status === 304 && options.ifNoneMatch !== undefined)) {
    throw await toError(response);
  }
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
  return parse(path, await send(path, options), schema);
}

async function parse<S extends z.ZodType>(
  path: string,
  response: Response,
  schema: S,
): Promise<z.output<S>> {
  // A request cancelled while its body is read (React Query cancels a refetch that a newer one
  // replaces) is an abort like one cancelled before the answer, not an unexpected answer.
  const body: unknown = await response.json().catch((error: unknown) => {
    if (isAbort(error)) throw error;
    return undefined;
  });
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    console.error('Unexpected response from', path, parsed.error);
    throw new ApiRequestError(response.status, 'The server sent an unexpected response.');
  }
  return parsed.data;
}

/** An answer kept with its ETag, so that asking again can be answered "unchanged". */
export interface Revalidatable<T> {
  data: T;
  etag: string | undefined;
}

/**
 * A GET that revalidates what the caller already has: the server answers 304 when nothing
 * changed, and `previous` comes back as it is, neither downloaded nor parsed again (the list of
 * ten thousand clients is 4.6 MB of JSON, asked again after every reconnect of the live stream).
 */
export async function apiRequestRevalidated<S extends z.ZodType>(
  path: string,
  schema: S,
  previous: Revalidatable<z.output<S>> | undefined,
  options: Omit<RequestOptions, 'method' | 'body' | 'ifNoneMatch'> = {},
): Promise<Revalidatable<z.output<S>>> {
  const response = await send(path, {
    ...options,
    ...(previous?.etag === undefined ? {} : { ifNoneMatch: previous.etag }),
  });
  if (response.status === 304 && previous) return previous;
  const etag = response.headers.get('etag') ?? undefined;
  return { data: await parse(path, response, schema), etag };
}

/** For calls answered with 204 No Content. */
export async function apiSend(path: string, options: RequestOptions): Promise<void> {
  await send(path, options);
}
