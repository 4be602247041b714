import type { Dialect } from '#server/db/database.ts';
import { fromBool } from '#server/db/codec.ts';

/**
 * A verified, enabled person's `user` row, for tests that write the table directly (a
 * migration's old data, a person a database test needs): named after its id, at
 * `<id>@example.test`, unless `extra` says otherwise.
 */
export function verifiedUserRow<Extra extends object = object>(
  dialect: Dialect,
  id: string,
  at: string,
  extra?: Extra,
) {
  return {
    id,
    email: `${id}@example.test`,
    name: id,
    emailVerified: fromBool(true, dialect),
    disabled: fromBool(false, dialect),
    createdAt: at,
    updatedAt: at,
    ...extra,
  };
}
