import type { Transaction } from 'kysely';
import type { Actor } from '#shared/events.ts';
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  webhookInputSchema,
  webhookPatchSchema,
} from '#shared/webhooks.ts';
import type { z } from 'zod';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool, toBool, toIso, toStringList } from '#server/db/codec.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { webhookSecretPlace, type SecretBox } from '#server/secrets.ts';
import { appendEvent, latestSeq } from '#server/realtime/event-log.ts';
import { selectWithOwner, type OwnerSpeaks } from '#server/realtime/webhook-owner.ts';
import { newWebhookSecret } from '#server/realtime/webhook-signature.ts';
import { presentDelivery, presentWebhook } from './webhook-presenter.ts';

type Trx = Transaction<Database>;
type Input = z.output<typeof webhookInputSchema>;
type Patch = z.output<typeof webhookPatchSchema>;

/** What the outside of a row shows, without its secret and cursor. */
const VISIBLE = [
  'webhook.id',
  'webhook.url',
  'webhook.events',
  'webhook.format',
  'webhook.enabled',
  'webhook.createdAt',
  'webhook.updatedAt',
] as const;

/** A page cursor of the delivery list: the last row's time and id, opaque to the caller. */
function encodeCursor(row: { createdAt: string; id: string }): string {
  return Buffer.from(`${row.createdAt}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } | undefined {
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  // A cursor is one this list made: a record id after a time.
  if (!createdAt || !id || rest.length > 0 || Number.isNaN(Date.parse(createdAt))) return undefined;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return undefined;
  return { createdAt: new Date(createdAt).toISOString(), id };
}

/** The fields of an edit, by name: a new secret is `secret`, never its value. */
function fieldsOf(patch: Patch): string[] {
  return (['url', 'events', 'format', 'enabled', 'secret'] as const).filter(
    (field) => patch[field] !== undefined,
  );
}

/**
 * Webhook endpoints and their deliveries as the administrators' routes read and write them.
 * Each change to an endpoint commits with its `webhook.*` event (the audit trail), after which
 * `onCommitted` wakes the hub. The outbox (realtime/webhook-outbox.ts) makes the deliveries;
 * `onQueued` wakes it after a write that gives it something to do.
 */
export class WebhookRepository {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #onCommitted: () => void;
  readonly #onQueued: () => void;
  readonly #ownerSpeaks: OwnerSpeaks;

  constructor(
    db: Db,
    box: SecretBox,
    options: { onCommitted: () => void; onQueued: () => void; ownerSpeaks: OwnerSpeaks },
  ) {
    this.#db = db;
    this.#box = box;
    this.#onCommitted = options.onCommitted;
    this.#onQueued = options.onQueued;
    this.#ownerSpeaks = options.ownerSpeaks;
  }

  async #summaries(
    ids: readonly string[],
  ): Promise<Map<string, { lastDelivery: Webhook['lastDelivery']; pending: number }>> {
    const out = new Map<string, { lastDelivery: Webhook['lastDelivery']; pending: number }>();
    for (const id of ids) out.set(id, { lastDelivery: null, pending: 0 });
    if (ids.length === 0) return out;
    const { kysely } = this.#db;
    const pending = await kysely
      .selectFrom('webhookDelivery')
      .select((eb) => ['webhookId', eb.fn.countAll<number | string>().as('n')])
      .where('webhookId', 'in', ids)
      .where('status', '=', 'pending')
      .groupBy('webhookId')
      .execute();
    for (const row of pending) out.get(row.webhookId)!.pending = Number(row.n);
    for (const id of ids) {
      // The newest attempt made: a delivery still waiting for its first says nothing yet.
      const last = await kysely
        .selectFrom('webhookDelivery')
        .select(['status', 'responseCode', 'lastAttemptAt'])
        .where('webhookId', '=', id)
        .where('lastAttemptAt', 'is not', null)
        .orderBy('lastAttemptAt', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last?.lastAttemptAt) {
        out.get(id)!.lastDelivery = {
          status: last.status === 'delivered' || last.status === 'failed' ? last.status : 'pending',
          responseCode: last.responseCode,
          at: toIso(last.lastAttemptAt),
        };
      }
    }
    return out;
  }

  async list(): Promise<Webhook[]> {
    const rows = await selectWithOwner(this.#db.kysely)
      .select(VISIBLE)
      .orderBy('webhook.createdAt')
      .orderBy('webhook.id')
      .execute();
    const summaries = await this.#summaries(rows.map((row) => row.id));
    return rows.map((row) => presentWebhook(row, summaries.get(row.id)!, this.#ownerSpeaks(row)));
  }

  async get(id: string): Promise<Webhook | undefined> {
    const row = await selectWithOwner(this.#db.kysely)
      .select(VISIBLE)
      .where('webhook.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return presentWebhook(row, (await this.#summaries([id])).get(id)!, this.#ownerSpeaks(row));
  }

  /**
   * A new endpoint, its cursor at its own `webhook.created` event: it hears of the events after
   * its creation.
   */
  async create(input: Input, actor: Actor): Promise<{ webhook: Webhook; secret: string }> {
    const id = newRecordId();
    const secret = input.secret ?? newWebhookSecret();
    const at = new Date().toISOString();
    await this.#db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook')
        .values({
          id,
          url: input.url,
          events: JSON.stringify([...new Set(input.events)]),
          format: input.format,
          enabled: fromBool(input.enabled, this.#db.dialect),
          secret: this.#box.seal(secret, webhookSecretPlace(id)),
          cursor: 0,
          createdAt: at,
          updatedAt: at,
          createdById: actor.id,
        })
        .execute();
      const seq = await appendEvent(trx, this.#db.dialect, {
        kind: 'webhook.created',
        clientId: null,
        webhookId: id,
        actor,
        fields: ['url', 'events', 'format', 'enabled', 'secret'],
        at,
      });
      await trx.updateTable('webhook').set({ cursor: seq }).where('id', '=', id).execute();
    });
    this.#onCommitted();
    return { webhook: (await this.get(id))!, secret };
  }

  /** An edit; undefined when there is no such endpoint. */
  async update(id: string, patch: Patch, actor: Actor): Promise<Webhook | undefined> {
    const found = await this.#db.kysely.transaction().execute(async (trx: Trx) => {
      const row = await trx
        .selectFrom('webhook')
        .select(['enabled'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return false;
      const reenabled = patch.enabled === true && !toBool(row.enabled);
      const at = new Date().toISOString();
      // Its own event first: a cursor moved to the head (switched back on) passes it.
      await appendEvent(trx, this.#db.dialect, {
        kind: 'webhook.updated',
        clientId: null,
        webhookId: id,
        actor,
        fields: fieldsOf(patch),
        at,
      });
      await trx
        .updateTable('webhook')
        .set({
          ...(patch.url === undefined ? {} : { url: patch.url }),
          ...(patch.events === undefined
            ? {}
            : { events: JSON.stringify([...new Set(patch.events)]) }),
          ...(patch.format === undefined ? {} : { format: patch.format }),
          ...(patch.enabled === undefined
            ? {}
            : { enabled: fromBool(patch.enabled, this.#db.dialect) }),
          ...(patch.secret === undefined
            ? {}
            : { secret: this.#box.seal(patch.secret, webhookSecretPlace(id)) }),
          // Switched back on, it hears of events from now on, not of those while it was off.
          ...(reenabled ? { cursor: await latestSeq(trx) } : {}),
          // Whoever saves it vouches for it from now on (realtime/webhook-owner.ts).
          createdById: actor.id,
          updatedAt: at,
        })
        .where('id', '=', id)
        .execute();
      return true;
    });
    if (!found) return undefined;
    this.#onCommitted();
    this.#onQueued();
    return this.get(id);
  }

  /** Deletes the endpoint and its deliveries; false when there was none. */
  async delete(id: string, actor: Actor): Promise<boolean> {
    const deleted = await this.#db.kysely.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('webhook').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await appendEvent(trx, this.#db.dialect, {
        kind: 'webhook.deleted',
        clientId: null,
        webhookId: id,
        actor,
        fields: [],
        at: new Date().toISOString(),
      });
      return true;
    });
    if (deleted) this.#onCommitted();
    return deleted;
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.#db.kysely
      .selectFrom('webhook')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The endpoint's deliveries, newest first; undefined for a cursor that is not one. */
  async deliveries(
    id: string,
    query: { cursor?: string | undefined; limit: number },
  ): Promise<WebhookDeliveryPage | undefined> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (after === undefined) return undefined;
    let select = this.#db.kysely
      .selectFrom('webhookDelivery')
      .selectAll()
      .where('webhookId', '=', id)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1);
    if (after !== null) {
      select = select.where((eb) =>
        eb.or([
          eb('createdAt', '<', after.createdAt),
          eb.and([eb('createdAt', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    const rows = await select.execute();
    const page = rows.slice(0, query.limit).map(presentDelivery);
    const last = page.at(-1);
    return {
      deliveries: page,
      nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
    };
  }

  /**
   * A new delivery of an event already sent (or given up), queued after what is pending; its
   * own id, so a receiver that keeps the ids it saw takes it as new. Undefined when the
   * endpoint has no such delivery; 'pending' when that one is still waiting.
   */
  async resend(id: string, deliveryId: string): Promise<WebhookDelivery | 'pending' | undefined> {
    const row = await this.#db.kysely
      .selectFrom('webhookDelivery')
      .select(['eventSeq', 'eventKind', 'status'])
      .where('webhookId', '=', id)
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.status === 'pending') return 'pending';
    return this.#queue(id, { seq: Number(row.eventSeq), kind: row.eventKind });
  }

  /**
   * A test delivery: the newest event of a kind the endpoint wants, queued again. Undefined
   * when there is no such endpoint, null when the log holds no such event yet.
   */
  async test(id: string): Promise<WebhookDelivery | null | undefined> {
    const hook = await this.#db.kysely
      .selectFrom('webhook')
      .select('events')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!hook) return undefined;
    const kinds = toStringList(hook.events);
    if (kinds.length === 0) return null;
    const event = await this.#db.kysely
      .selectFrom('event')
      .select(['seq', 'kind'])
      .where('kind', 'in', kinds)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!event) return null;
    return this.#queue(id, { seq: Number(event.seq), kind: event.kind });
  }

  async #queue(id: string, event: { seq: number; kind: string }): Promise<WebhookDelivery> {
    const row = {
      id: newRecordId(),
      webhookId: id,
      eventSeq: event.seq,
      eventKind: event.kind,
      status: 'pending',
      attempts: 0,
      responseCode: null,
      error: null,
      createdAt: new Date().toISOString(),
      firstAttemptAt: null,
      lastAttemptAt: null,
      nextAttemptAt: null,
      deliveredAt: null,
    };
    await this.#db.kysely.insertInto('webhookDelivery').values(row).execute();
    this.#onQueued();
    return presentDelivery(row);
  }
}
