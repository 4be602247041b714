import { APIError } from 'better-auth/api';
import type { Db } from '#server/db/database.ts';
import { acceptInvitation, invitationFor, refuseInvitedSignUp } from './invitations.ts';

/**
 * What Better Auth's hooks (auth.ts) do for invitations, one call each: check an email sign-up
 * that carries an invitation token, give the new account the invitation's role and tags, and
 * mark the invitation used once the account exists.
 */

/** Before `/sign-up/email`: refuses a used or expired token, or an address it was not sent to. */
export async function checkInvitedSignUp(db: Db, body: unknown): Promise<void> {
  const refusal = await refuseInvitedSignUp(db, body);
  if (!refusal) return;
  throw new APIError(refusal.status === 400 ? 'BAD_REQUEST' : 'FORBIDDEN', {
    code: refusal.code,
    message: refusal.message,
  });
}

/**
 * The fields an invited person's new account starts with: the invitation's role and tags, and
 * a verified address (the link reached that mailbox, or the sign-in provider vouched for it).
 * Undefined for anyone not invited.
 */
export async function invitedUserData(
  db: Db,
  user: { email: string; emailVerified?: boolean },
  body: unknown,
): Promise<{ role: string; tags: string | null; emailVerified: true } | undefined> {
  const invited = await invitationFor(db, user, body);
  return invited && { role: invited.role, tags: invited.tags, emailVerified: true };
}

/** After the account is made: the invitation is used, and `person.joined` recorded. */
export async function acceptInvitedUser(
  db: Db,
  user: { id: string; email: string; emailVerified?: boolean },
  body: unknown,
): Promise<void> {
  await acceptInvitation(db, user, body);
}
