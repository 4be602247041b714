import { randomBytes, randomUUID } from 'node:crypto';
import type { Actor } from '#shared/events.ts';
import { roleSchema, type Role } from '#shared/people.ts';
import { INVITATION_DAYS, type Invitation } from '#shared/people-admin.ts';
import type { Transaction } from 'kysely';
import type { Db, Dialect } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool, toIso, toStringList } from '#server/db/codec.ts';
import { appendEvent } from '#server/realtime/event-log.ts';
import type { Mailer } from '#server/mail/mailer.ts';
import { invitationMail } from '#server/mail/templates.ts';
import { hashToken } from '#server/auth/invited-sign-up.ts';

/**
 * Invitations: an administrator names an address, a role and tags; the address gets a sign-up
 * link carrying a random token. Only the token's SHA-256 is stored, so a copy of the database
 * lets nobody sign up as the invited person. The link is valid for INVITATION_DAYS, once. What
 * a sign-up with the link does is in auth/invited-sign-up.ts.
 */
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
   *
   * An account nobody has verified is no member: anyone may have signed the address up and
   * chosen its password (or, before providers had to verify it, signed in with it). It does not
   * block the invitation, and is removed with the invitation, in its transaction (see
   * removePendingAccount).
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
      .where('emailVerified', '=', fromBool(true, dialect))
      .executeTakeFirst();
    if (member) return { status: 'exists' };
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    const now = new Date();
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000).toISOString();
    await kysely.transaction().execute(async (trx) => {
      await removePendingAccount(trx, dialect, input.email);
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

/**
 * Removes the account of `email` that nobody has verified, with its sessions and accounts (deleted
 * with the user) and its verification rows (a password reset's, a pending second-factor sign-in's:
 * they name the user's id). Whoever signed the address up chose that password, and Better Auth
 * mailed the address a link that verifies that account: left until the invitee's own sign-up
 * replaces it, a click on that mail, which looks like ours, would hand the outsider a verified
 * account under the invited address. Better Auth's /verify-email refuses a link whose account is
 * gone (USER_NOT_FOUND), or made anew under another id by the invitation's sign-up (INVALID_TOKEN:
 * the link names the user's id). The conditions are in the DELETE itself, so an account verified
 * meanwhile stays.
 */
async function removePendingAccount(
  trx: Transaction<Database>,
  dialect: Dialect,
  email: string,
): Promise<void> {
  const removed = await trx
    .deleteFrom('user')
    .where('email', '=', email)
    .where('emailVerified', '=', fromBool(false, dialect))
    .returning('id')
    .execute();
  if (removed.length === 0) return;
  await trx
    .deleteFrom('verification')
    .where(
      'value',
      'in',
      removed.map((row) => row.id),
    )
    .execute();
}
