import { createHash } from 'node:crypto';
import { APIError } from 'better-auth/api';
import { roleSchema, type Role } from '#shared/people.ts';
import type { Db } from '#server/db/database.ts';
import { appendEvent } from '#server/realtime/event-log.ts';

/**
 * What Better Auth's hooks (auth.ts) do for administrators' invitations (the People feature
 * makes them): check an email sign-up that carries an invitation token, give the new account
 * the invitation's role and tags, mark the invitation used once the account exists, and note
 * every sign-in.
 */

/** The token as the invitation table holds it. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What an invitation gives the person it names when they sign up with it. */
export interface InvitedAccess {
  invitationId: string;
  role: Role;
  tags: string | null;
}

/** The pending, unexpired invitation a token stands for. */
export async function pendingInvitation(db: Db, token: string) {
  const now = new Date();
  return db.kysely
    .selectFrom('invitation')
    .select(['id', 'email', 'role', 'tags'])
    .where('tokenHash', '=', hashToken(token))
    .where('acceptedAt', 'is', null)
    .where('expiresAt', '>', db.dialect === 'postgres' ? now : now.toISOString())
    .executeTakeFirst();
}

/** The pending, unexpired invitation of an address, newest first. */
async function pendingInvitationOf(db: Db, email: string) {
  const now = new Date();
  return db.kysely
    .selectFrom('invitation')
    .select(['id', 'email', 'role', 'tags'])
    .where('email', '=', email.trim().toLowerCase())
    .where('acceptedAt', 'is', null)
    .where('expiresAt', '>', db.dialect === 'postgres' ? now : now.toISOString())
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();
}

/** The invitation token a sign-up request carries (the sign-up page sends it as `invitation`). */
export function invitationTokenOf(body: unknown): string | undefined {
  const token: unknown = (body as { invitation?: unknown } | null | undefined)?.invitation;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

export type SignUpRefusal = { status: 400 | 403; code: string; message: string };

/** The refusal of a sign-up, without the token, of an address with a pending invitation. */
export const INVITATION_REQUIRED_CODE = 'INVITATION_REQUIRED';

/**
 * Checks an email sign-up before Better Auth creates anyone. With an invitation token, the
 * token must be pending and the address the one it was mailed to. Without one, the address
 * must have no pending invitation: such a sign-up would mail the invitee a link that verifies
 * an account with whatever password its author chose (someone else's, as likely as theirs),
 * and the invitation's own link is what proves the mailbox.
 */
export async function refuseInvitedSignUp(db: Db, body: unknown): Promise<SignUpRefusal | null> {
  const token = invitationTokenOf(body);
  if (token === undefined) {
    const email: unknown = (body as { email?: unknown } | null | undefined)?.email;
    if (typeof email !== 'string' || !(await pendingInvitationOf(db, email))) return null;
    return {
      status: 403,
      code: INVITATION_REQUIRED_CODE,
      message: 'email: This address has an invitation: sign up through the link in its mail',
    };
  }
  const invitation = await pendingInvitation(db, token);
  if (!invitation) {
    return {
      status: 400,
      code: 'INVITATION_INVALID',
      message: 'This invitation link is not valid any more: ask for a new one',
    };
  }
  const email: unknown = (body as { email?: unknown }).email;
  if (typeof email !== 'string' || email.trim().toLowerCase() !== invitation.email) {
    return {
      status: 403,
      code: 'INVITATION_OTHER_EMAIL',
      message: `email: This invitation is for ${invitation.email}`,
    };
  }
  return null;
}

/**
 * What an invitation gives a new account, or undefined. An email sign-up gets it only with the
 * invitation's token (the link proves the mail was read, so the address is taken as verified);
 * an account made through a sign-in provider gets it when the provider vouches for the address
 * (`emailVerified`), since the invitation is for whoever owns it. A sign-up by password without
 * the token is refused while the invitation is pending (refuseInvitedSignUp), and gets nothing
 * once it is not: whoever typed the address has not shown that they own it.
 */
export async function invitationFor(
  db: Db,
  user: { email: string; emailVerified?: boolean },
  body: unknown,
): Promise<(InvitedAccess & { emailVerified: boolean }) | undefined> {
  const token = invitationTokenOf(body);
  const found =
    token !== undefined
      ? await pendingInvitation(db, token)
      : user.emailVerified === true
        ? await pendingInvitationOf(db, user.email)
        : undefined;
  if (!found || found.email !== user.email.trim().toLowerCase()) return undefined;
  return {
    invitationId: found.id,
    role: roleSchema.catch('viewer').parse(found.role),
    tags: found.tags,
    emailVerified: true,
  };
}

/**
 * Marks the invitation of a new account used and records that the person joined. Runs after
 * the account exists; a second use of the same token finds nothing pending.
 */
export async function acceptInvitation(
  db: Db,
  user: { id: string; email: string; emailVerified?: boolean },
  body: unknown,
): Promise<void> {
  const invited = await invitationFor(db, user, body);
  if (!invited) return;
  const at = new Date().toISOString();
  // The event hub's poll carries the event to the live streams.
  await db.kysely.transaction().execute(async (trx) => {
    const accepted = await trx
      .updateTable('invitation')
      .set({ acceptedAt: at })
      .where('id', '=', invited.invitationId)
      .where('acceptedAt', 'is', null)
      .executeTakeFirst();
    if (Number(accepted.numUpdatedRows) === 0) return;
    await appendEvent(trx, db.dialect, {
      kind: 'person.joined',
      clientId: null,
      personId: user.id,
      // The person joined by themselves; the event names the invitation they used.
      actor: { id: user.id, name: user.email },
      fields: [`invitation:${invited.invitationId}`],
      at,
    });
  });
}

/** Sets when the person last signed in: each new session is a sign-in. */
export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db.kysely
    .updateTable('user')
    .set({ lastSignInAt: new Date().toISOString() })
    .where('id', '=', userId)
    .execute();
}

/**
 * Before `/sign-up/email`: refuses a used or expired token, an address it was not sent to, and
 * an invited address signed up without its invitation.
 */
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
