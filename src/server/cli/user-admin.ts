import { randomBytes } from 'node:crypto';
import type { Config } from '#server/config.ts';
import { openDatabase, type Db } from '#server/db/database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { secretKeyFor } from '#server/secret-key-check.ts';
import { fromBool, toBool, toIso } from '#server/db/codec.ts';
import { awaitsFirstAdmin } from '#server/auth/first-admin.ts';
import { changeRole, lastAdminError, RoleChangeRefused } from '#server/auth/role-change.ts';
import { PeopleRepository } from '#server/features/people/people-repository.ts';
import { roleSchema, type Role } from '#shared/people.ts';
import { passwordSchema } from '#shared/account.ts';
import { EMAIL_MAX_LENGTH, EMAIL_TOO_LONG_MESSAGE } from '#shared/people-admin.ts';

export class UserAdminError extends Error {
  override name = 'UserAdminError';
}

export interface UserRow {
  email: string;
  name: string;
  role: Role;
  verified: boolean;
  disabled: boolean;
  createdAt: string;
  sessions: number;
}

/**
 * What the `user` command does, on the same database and the same Better Auth rules as the
 * server (allowlists included): operators can bootstrap without mail or a provider.
 */
export class UserAdmin {
  readonly #db: Db;
  readonly #config: Config;
  readonly #secretKey: string;

  private constructor(db: Db, config: Config, secretKey: string) {
    this.#db = db;
    this.#config = config;
    this.#secretKey = secretKey;
  }

  static async open(config: Config): Promise<UserAdmin> {
    const db = openDatabase(config.database);
    try {
      await migrateToLatest(db);
      return new UserAdmin(db, config, await secretKeyFor(db, config));
    } catch (error) {
      await db.close();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  static generatePassword(): string {
    return randomBytes(18).toString('base64url');
  }

  async #find(email: string) {
    return this.#db.kysely
      .selectFrom('user')
      .select(['id', 'email'])
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }

  /** A verified email + password user. */
  async create(email: string, password: string, name = ''): Promise<void> {
    // Not echoed: it may be 100,000 characters. Sign-up and invitations refuse it too.
    if (email.trim().length > EMAIL_MAX_LENGTH)
      throw new UserAdminError(`--email: ${EMAIL_TOO_LONG_MESSAGE}.`);
    if (await this.#find(email))
      throw new UserAdminError(`A user with the email ${email} exists already.`);
    // The sign-up page's rule, checked here to say the limit (Better Auth's refusal names none).
    const passwordProblem = passwordSchema.safeParse(password).error?.issues[0]?.message;
    if (passwordProblem) throw new UserAdminError(`The password: ${passwordProblem}.`);
    // Better Auth and its plugins are most of what this command loads: loaded for `create` alone.
    const { signUpWithPassword } = await import('./user-sign-up.ts');
    const parts = { db: this.#db, config: this.#config, secretKey: this.#secretKey };
    const refused = await signUpWithPassword(parts, { email, password, name });
    if (refused !== null) throw new UserAdminError(refused);
    // Verified as a confirmed sign-up is, and like one the installation's first admin.
    const firstAdmin = await awaitsFirstAdmin(this.#db);
    await this.#db.kysely
      .updateTable('user')
      .set({
        emailVerified: fromBool(true, this.#db.dialect),
        ...(firstAdmin && { role: 'admin' }),
      })
      .where('email', '=', email.trim().toLowerCase())
      .execute();
  }

  async list(): Promise<UserRow[]> {
    const rows = await this.#db.kysely
      .selectFrom('user')
      .leftJoin('session', 'session.userId', 'user.id')
      .select((eb) => [
        'user.email',
        'user.name',
        'user.role',
        'user.emailVerified',
        'user.disabled',
        'user.createdAt',
        eb.fn.count<number>('session.id').as('sessions'),
      ])
      .groupBy([
        'user.id',
        'user.email',
        'user.name',
        'user.role',
        'user.emailVerified',
        'user.disabled',
        'user.createdAt',
      ])
      .orderBy('user.createdAt')
      .execute();
    return rows.map((r) => ({
      email: r.email,
      name: r.name,
      // As the session guard reads it: an unreadable role grants the least.
      role: roleSchema.catch('viewer').parse(r.role),
      verified: toBool(r.emailVerified),
      disabled: toBool(r.disabled),
      createdAt: toIso(r.createdAt),
      sessions: Number(r.sessions),
    }));
  }

  /**
   * Gives the user a role, recorded in the audit trail as done from the command line. Refuses
   * to demote the last administrator, and any change for an account whose address nobody
   * verified yet. Returns the role they had, and whether a tag limit was
   * lifted with it (an administrator has none).
   */
  async setRole(
    email: string,
    role: Role,
    actor: { id: null; name: string },
  ): Promise<{ from: Role; liftedTags: boolean }> {
    const user = await this.#find(email);
    if (!user) throw new UserAdminError(`No user with the email ${email}.`);
    try {
      const result = await changeRole(this.#db, { personId: user.id, role, actor });
      if (result.changed === 'no-such-person')
        throw new UserAdminError(`No user with the email ${email}.`);
      return { from: result.from, liftedTags: result.changed && result.liftedTags };
    } catch (error) {
      if (error instanceof RoleChangeRefused) throw new UserAdminError(error.message);
      throw error;
    }
  }

  /**
   * Disables the user and ends every session they have, at once, recorded in the audit trail
   * as done from the command line. Refuses to disable the last enabled administrator. Returns
   * the sessions ended.
   */
  async disable(email: string, actor: { id: null; name: string }): Promise<number> {
    return this.#setDisabled(email, true, actor);
  }

  async enable(email: string, actor: { id: null; name: string }): Promise<void> {
    await this.#setDisabled(email, false, actor);
  }

  /** The People screen's own change, as the command line's actor: the sessions it ended. */
  async #setDisabled(
    email: string,
    disabled: boolean,
    actor: { id: null; name: string },
  ): Promise<number> {
    const user = await this.#find(email);
    if (!user) throw new UserAdminError(`No user with the email ${email}.`);
    const sessions = await this.#db.kysely
      .selectFrom('session')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    // No live stream in this process to wake: the server's own poll picks the events up.
    const people = new PeopleRepository(this.#db, () => {});
    const result = await people.update(user.id, { disabled }, actor);
    if (result.status === 'not_found') throw new UserAdminError(`No user with the email ${email}.`);
    if (result.status === 'refused') throw new UserAdminError(lastAdminError(email).message);
    return disabled ? Number(sessions.n) : 0;
  }
}
