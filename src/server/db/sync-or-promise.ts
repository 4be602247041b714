/**
 * What the hot reads answer: the value itself where it can be had at once (SQLite's quick
 * reader, a row kept since a check), else a promise (PostgreSQL). Callers keep it synchronous
 * on the way up, so that such an answer goes out in the job that read the request: an `await`
 * costs a promise and a later job on every request.
 */
export type SyncOrPromise<T> = T | Promise<T>;

/** `next` applied to `value`: at once when it is here, else once it has come. */
export function andThen<T, U>(
  value: SyncOrPromise<T>,
  next: (value: T) => U,
): U | Promise<Awaited<U>> {
  // A promise resolved with a promise takes on its value: TypeScript's `then` does not say so.
  return value instanceof Promise ? (value.then(next) as Promise<Awaited<U>>) : next(value);
}
