import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { deployTokenPlace, type SecretBox } from '#server/secrets.ts';

/** Each user's personal deploy access token, sealed at rest. */
export class DeployTokens {
  readonly #db: Kysely<Database>;
  readonly #box: SecretBox;

  constructor(db: Kysely<Database>, box: SecretBox) {
    this.#db = db;
    this.#box = box;
  }

  async read(userId: string): Promise<string | null> {
    const row = await this.#db
      .selectFrom('deployToken')
      .select('token')
      .where('userId', '=', userId)
      .executeTakeFirst();
    return row ? this.#box.open(row.token, deployTokenPlace(userId)) : null;
  }

  /**
   * Everyone's token: a deploy puts its person's on the remote command line, so any server
   * may have seen any of them; what a server says is masked against them all.
   */
  async readAll(): Promise<string[]> {
    const rows = await this.#db.selectFrom('deployToken').select(['userId', 'token']).execute();
    return rows.map((row) => this.#box.open(row.token, deployTokenPlace(row.userId)));
  }

  /** An empty token removes it. */
  async write(userId: string, token: string): Promise<void> {
    if (token === '') {
      await this.#db.deleteFrom('deployToken').where('userId', '=', userId).execute();
      return;
    }
    const sealed = this.#box.seal(token, deployTokenPlace(userId));
    const updatedAt = new Date().toISOString();
    await this.#db
      .insertInto('deployToken')
      .values({ userId, token: sealed, updatedAt })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ token: sealed, updatedAt }))
      .execute();
  }
}

/** Shows that a token is set and how it ends, like a card number: `••••••••abcd`. */
export function maskToken(token: string): string {
  return token.length <= 8 ? '••••••••' : `••••••••${token.slice(-4)}`;
}
