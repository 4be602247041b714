import { z } from 'zod';

/**
 * The version a record was read at, sent back with a change to it: a save over a newer change
 * is refused (409). Each check has its own message: zod 4 gives a check without one the
 * message of its schema, so a version of 0 would have been "Must be a number".
 */
export const recordVersionSchema = z
  .number('Must be a number')
  .int('Must be a whole number')
  .min(1, 'Must be 1 or more');
