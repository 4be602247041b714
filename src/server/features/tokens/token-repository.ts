import { randomBytes, randomUUID } from 'node:crypto';
import type { Actor } from '#shared/events.ts';
import {
  TOKEN_PREFIX,
  tokenScopeSchema,
  type ApiToken,
  type CreateTokenInput,
  type CreatedToken,
  type TokenScope,
} from '#shared/tokens.ts';
import type { Db } from '#server/db/database.ts';
import { toIso } from '#server/db/codec.ts';
import { appendEvent, type NewEvent } from '#server/realtime/event-log.ts';
import { hashApiToken } from '#server/auth/api-tokens.ts';

/** Characters of the token shown in the list after the prefix: enough to tell tokens apart. */
const SHOWN_CHARACTERS = 4;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A person's API tokens. A token is `cm_` and 32 random bytes (base64url); only its SHA-256 is
 * stored, with its first characters to recognise it by. Creating and revoking are in the audit
 * trail (`person.*` events about the owner), naming fields, never the token or its name.
 */
export class ApiTokens {
  readonly #db: Db;
  readonly #onCommitted: () => void;

  constructor(db: Db, onCommitted: () => void) {
    this.#db = db;
    this.#onCommitted = onCommitted;
  }

  /** The person's tokens, newest first; an expired one stays listed until it is revoked. */
  async list(userId: string): Promise<ApiToken[]> {
    const rows = await this.#db.kysely
      .selectFrom('apiToken')
      .select(['id', 'name', 'scope', 'prefix', 'createdAt', 'expiresAt', 'lastUsedAt'])
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      scope: tokenScopeSchema.catch('read').parse(row.scope),
      prefix: row.prefix,
      createdAt: toIso(row.createdAt),
      expiresAt: row.expiresAt === null ? null : toIso(row.expiresAt),
      lastUsedAt: row.lastUsedAt === null ? null : toIso(row.lastUsedAt),
    }));
  }

  /** Makes a token; the answer is the only place the token itself ever appears. */
  async create(userId: string, input: CreateTokenInput, actor: Actor): Promise<CreatedToken> {
    const { kysely, dialect } = this.#db;
    const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    const now = new Date();
    const at = now.toISOString();
    const expiresAt =
      input.expiresInDays === null
        ? null
        : new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString();
    await kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('apiToken')
        .values({
          id,
          userId,
          name: input.name,
          scope: input.scope,
          prefix: secret.slice(0, TOKEN_PREFIX.length + SHOWN_CHARACTERS),
          tokenHash: hashApiToken(secret),
          createdAt: at,
          expiresAt,
          windowCount: 0,
        })
        .execute();
      await appendEvent(trx, dialect, {
        kind: 'person.token_created',
        clientId: null,
        personId: userId,
        actor,
        fields: ['name', scopeField(input.scope), ...(expiresAt === null ? [] : ['expiresAt'])],
        at,
      });
    });
    this.#onCommitted();
    const token = (await this.list(userId)).find((row) => row.id === id);
    if (!token) throw new Error('token not found after insert');
    return { token, secret };
  }

  /** Revokes one of the person's tokens: the next request with it is refused. */
  async revoke(userId: string, id: string, actor: Actor): Promise<boolean> {
    const { kysely, dialect } = this.#db;
    const revoked = await kysely.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('apiToken')
        .where('id', '=', id)
        .where('userId', '=', userId)
        .returning('scope')
        .executeTakeFirst();
      if (!gone) return false;
      await appendEvent(
        trx,
        dialect,
        tokenRevokedEvent(userId, gone.scope, actor, new Date().toISOString()),
      );
      return true;
    });
    if (revoked) this.#onCommitted();
    return revoked;
  }

  /** Records that a token request was given a secret (once per request). */
  async recordSecretUse(userId: string, scope: TokenScope, actor: Actor): Promise<void> {
    const { kysely, dialect } = this.#db;
    await kysely.transaction().execute(async (trx) => {
      await appendEvent(trx, dialect, {
        kind: 'person.token_secret_used',
        clientId: null,
        personId: userId,
        actor,
        fields: [scopeField(scope)],
        at: new Date().toISOString(),
      });
    });
    this.#onCommitted();
  }
}

/** The scope as an event names it, like a role: `scope:read+secrets`. */
export function scopeField(scope: TokenScope): string {
  return `scope:${scope}`;
}

/** The event of a revoked token, by its owner or with every session of theirs. */
export function tokenRevokedEvent(
  userId: string,
  storedScope: string,
  actor: NewEvent['actor'],
  at: string,
): NewEvent {
  return {
    kind: 'person.token_revoked',
    clientId: null,
    personId: userId,
    actor,
    fields: ['name', scopeField(tokenScopeSchema.catch('read').parse(storedScope))],
    at,
  };
}
