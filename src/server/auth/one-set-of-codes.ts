import { APIError } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';
import { isUniqueViolation } from '#server/db/unique-violation.ts';

export const CODES_BEING_SET_UP_CODE = 'SECOND_FACTOR_SETUP_IN_PROGRESS';
export const CODES_BEING_SET_UP_MESSAGE =
  'Authenticator codes were being set up in another request at the same moment. Try again.';

/**
 * A person has one set of authenticator codes: the unique index on `twoFactor.userId`
 * (migration 0015) refuses the second of two enables that both found none. Better Auth lets
 * that database error through as a 500; this says what happened instead, as a 409. The
 * adapter is wrapped at Better Auth's init, before its internal adapter is built on it.
 */
export function oneSetOfCodes() {
  return {
    id: 'clients-manager-one-set-of-codes',
    init(context) {
      const { adapter } = context;
      return {
        context: {
          adapter: {
            ...adapter,
            create: async (input) => {
              try {
                return await adapter.create(input);
              } catch (error) {
                if (input.model !== 'twoFactor' || !isUniqueViolation(error)) throw error;
                throw new APIError('CONFLICT', {
                  code: CODES_BEING_SET_UP_CODE,
                  message: CODES_BEING_SET_UP_MESSAGE,
                });
              }
            },
          },
        },
      };
    },
  } satisfies BetterAuthPlugin;
}
