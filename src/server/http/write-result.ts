import { STALE_VERSION_CODE } from '#shared/api-error.ts';
import { HttpError } from './http-error.ts';

/** How a write of a record went; the route turns each into its answer (`refusalOf`). */
export type WriteResult =
  | { status: 'done'; id: string }
  | { status: 'not_found' }
  /** Saved over a newer change: `by` is who made it, as history names them, when known. */
  | { status: 'conflict'; by: string | null }
  /** Refused for what it asks: `field` names the input at fault, when one is. */
  | { status: 'refused'; code: 400 | 409; message: string; field?: string };

/** Said of a client id that names no client: never there, deleted meanwhile, or out of reach. */
export const NO_SUCH_CLIENT = 'No client with that id: it may have been deleted';

export function refused(code: 400 | 409, message: string, field?: string): WriteResult {
  return { status: 'refused', code, message, ...(field === undefined ? {} : { field }) };
}

/** A new record names a client that is not there: refused on its `clientId`. */
export function noSuchClient(): WriteResult {
  return refused(400, NO_SUCH_CLIENT, 'clientId');
}

/**
 * The error a write that did not go through answers with; nothing for one that did. `noun`
 * names the record in the conflict message ("This app was changed by …").
 */
export function refusalOf(
  result: WriteResult,
  record: { noun: string; notFound: () => HttpError },
): HttpError | undefined {
  switch (result.status) {
    case 'done':
      return undefined;
    case 'not_found':
      return record.notFound();
    case 'conflict':
      return staleVersion(record.noun, result.by);
    case 'refused':
      return result.field === undefined
        ? new HttpError(result.code, result.message)
        : new HttpError(result.code, `${result.field}: ${result.message}`, {
            fields: { [result.field]: result.message },
          });
  }
}

/** The 409 for a save at a version someone else replaced: `by` as history names them, if known. */
export function staleVersion(noun: string, by: string | null): HttpError {
  return new HttpError(
    409,
    `This ${noun} was changed${by ? ` by ${by}` : ''} after you opened it. Your changes were not saved: reload it and edit again.`,
    { code: STALE_VERSION_CODE },
  );
}
