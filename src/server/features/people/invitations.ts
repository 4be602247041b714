import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Actor } from '#shared/events.ts';
import { roleSchema, type Role } from '#shared/people.ts';
import { INVITATION_DAYS, type Invitation, type InvitationInput } from '#shared/people-admin.ts';
import type { Db } from '#server/db/database.ts';
import { toIso, toStringList } from '#server/db/codec.ts';
import { appendEvent } from '#server/realtime/event-log.ts';
import type { Mailer } from '#server/mail/mailer.ts';
import { invitationMail } from '#server/mail/templates.ts';

/**
 * Invitations: an administrator names an address, a role and tags; the address gets a sign-up
 * link carrying a random token. Only the token's SHA-256 is stored, so a copy of the database
 * lets nobody sign up as the invited person. The link is valid for INVITATION_DAYS, once.
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

export class Invitations {
  readonly #db: Db;
  readonly #mailer: Mailer;
  readonly #publicUrl: string;
  readonly #onCommitted: () => void;

  constructor(deps: { db: Db; mailer: Mailer; publicUrl: string; onCommitted: () => void }) {
    this.#db = deps.db;
    this.#mailer = deps.mailer;
    this.#publicUrl = deps.publicUrl;
    this.#onCommitted = deps.onCommitted;
  }

  /** Pending invitations, newest first; an expired one stays until it is revoked. */
  async list(): Promise<Invitation[]> {
    const rows = await this.#db.kysely
      .selectFrom('invitation')
      .leftJoin('user', 'user.id', 'invitation.invitedById')
      .select([
        'invitation.id',
        'invitation.email',
        'invitation.role',
        'invitation.tags',
        'invitation.createdAt',
        'invitation.expiresAt',
        'user.email as invitedBy',
      ])
      .where('invitation.acceptedAt', 'is', null)
      .orderBy('invitation.createdAt', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: roleSchema.catch('viewer').parse(row.role),
      tags: row.tags === null ? null : toStringList(row.tags),
      invitedBy: row.invitedBy,
      createdAt: toIso(row.createdAt),
      expiresAt: toIso(row.expiresAt),
    }));
  }

  /**
   * Stores the invitation and mails its link. An address that has an account already is
   * refused (409): its owner signs in, and an administrator changes their role instead. A new
   * invitation to an address replaces one still pending, whose link then stops working.
   */
  async create(
    input: { email: string; role: Role; tags: readonly string[] | null },
    actor: Actor,
  ): Promise<{ status: 'done'; invitation: Invitation } | { status: 'exists' }> {
    const { kysely, dialect } = this.#db;
    const member = await kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', input.email)
      .executeTakeFirst();
    if (member) return { status: 'exists' };
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    const now = new Date();
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000).toISOString();
    await kysely.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('invitation')
        .where('email', '=', input.email)
        .where('acceptedAt', 'is', null)
        .execute();
      await trx
        .insertInto('invitation')
        .values({
          id,
          email: input.email,
          role: input.role,
          tags: input.tags === null ? null : JSON.stringify(input.tags),
          tokenHash: hashToken(token),
          invitedById: actor.id,
          createdAt: at,
          expiresAt,
        })
        .execute();
      // The invitation stands for the person until they join; person.joined names the account.
      await appendEvent(trx, dialect, {
        kind: 'person.invited',
        clientId: null,
        personId: id,
        actor,
        fields: ['email', `role:${input.role}`, ...(input.tags === null ? [] : ['tags'])],
        at,
      });
    });
    this.#onCommitted();
    const link = `${this.#publicUrl}/sign-up?invitation=${encodeURIComponent(token)}`;
    await this.#mailer.send(invitationMail(input.email, link, actor.name));
    const invitation = (await this.list()).find((row) => row.id === id);
    if (!invitation) throw new Error('invitation not found after insert');
    return { status: 'done', invitation };
  }

  /** Revokes a pending invitation: its link stops working. */
  async revoke(id: string, actor: Actor): Promise<boolean> {
    const { kysely, dialect } = this.#db;
    const revoked = await kysely.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('invitation')
        .where('id', '=', id)
        .where('acceptedAt', 'is', null)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await appendEvent(trx, dialect, {
        kind: 'person.invitation_revoked',
        clientId: null,
        personId: id,
        actor,
        fields: [],
        at: new Date().toISOString(),
      });
      return true;
    });
    if (revoked) this.#onCommitted();
    return revoked;
  }
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

/**
 * Checks an email sign-up that names an invitation before Better Auth creates anyone: the token
 * must be pending and the address the one it was mailed to. A sign-up without a token is none
 * of this function's business.
 */
export async function refuseInvitedSignUp(db: Db, body: unknown): Promise<SignUpRefusal | null> {
  const token = invitationTokenOf(body);
  if (token === undefined) return null;
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
 * the token gets nothing: whoever typed the address has not shown that they own it.
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
  onCommitted: () => void = () => {},
): Promise<void> {
  const invited = await invitationFor(db, user, body);
  if (!invited) return;
  const at = new Date().toISOString();
  const joined = await db.kysely.transaction().execute(async (trx) => {
    const accepted = await trx
      .updateTable('invitation')
      .set({ acceptedAt: at })
      .where('id', '=', invited.invitationId)
      .where('acceptedAt', 'is', null)
      .executeTakeFirst();
    if (Number(accepted.numUpdatedRows) === 0) return false;
    await appendEvent(trx, db.dialect, {
      kind: 'person.joined',
      clientId: null,
      personId: user.id,
      // The person joined by themselves; the event names the invitation they used.
      actor: { id: user.id, name: user.email },
      fields: [`invitation:${invited.invitationId}`],
      at,
    });
    return true;
  });
  if (joined) onCommitted();
}

/** Sets when the person last signed in: each new session is a sign-in. */
export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db.kysely
    .updateTable('user')
    .set({ lastSignInAt: new Date().toISOString() })
    .where('id', '=', userId)
    .execute();
}

