import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { toBool } from '#server/db/codec.ts';

/**
 * An endpoint speaks for the administrator who made it or saved it last: the events it carries
 * (client names, who read which password, people's changes) are what that person may read. So
 * it is sent to only while they are an enabled administrator; a person disabled, demoted or
 * deleted leaves their endpoints paused, hearing of nothing, until another administrator saves
 * one and so takes it over. The endpoint is read with its owner's standing in one query.
 */
export function selectWithOwner(db: Kysely<Database>) {
  return db
    .selectFrom('webhook')
    .leftJoin('user', 'user.id', 'webhook.createdById')
    .select([
      'user.email as ownerEmail',
      'user.role as ownerRole',
      'user.disabled as ownerDisabled',
    ]);
}

export function ownerSpeaks(row: {
  ownerRole: string | null;
  ownerDisabled: number | boolean | null;
}): boolean {
  return row.ownerRole === 'admin' && row.ownerDisabled !== null && !toBool(row.ownerDisabled);
}
