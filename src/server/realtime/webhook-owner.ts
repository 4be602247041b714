import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { toBool } from '#server/db/codec.ts';
import { isEmailAllowed, type Allowlist } from '#server/auth/allowlist.ts';

/**
 * An endpoint speaks for the administrator who made it or saved it last: the events it carries
 * (client names, who read which password, people's changes) are what that person may read. So
 * it is sent to only while they are an enabled administrator whose address ALLOWED_EMAILS and
 * ALLOWED_EMAIL_DOMAINS let in; a person disabled, demoted, deleted or left out by the lists
 * leaves their endpoints paused, hearing of nothing, until another administrator saves one and
 * so takes it over. The endpoint is read with its owner's standing in one query.
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

/** What selectWithOwner reads of an endpoint's owner (all null once they are deleted). */
export interface OwnerStanding {
  ownerEmail: string | null;
  ownerRole: string | null;
  ownerDisabled: number | boolean | null;
}

/** Whether an endpoint's owner still speaks, under the installation's allowlists. */
export type OwnerSpeaks = (owner: OwnerStanding) => boolean;

export function ownerSpeaksUnder(allowlist: Allowlist): OwnerSpeaks {
  return (owner) =>
    owner.ownerRole === 'admin' &&
    owner.ownerDisabled !== null &&
    !toBool(owner.ownerDisabled) &&
    owner.ownerEmail !== null &&
    isEmailAllowed(owner.ownerEmail, allowlist);
}
