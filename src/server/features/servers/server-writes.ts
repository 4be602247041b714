import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Actor } from '#shared/events.ts';
import type { serverCreateSchema, serverFieldsSchema } from '#shared/servers.ts';
import type { Db } from '#server/db/database.ts';
import { keepingRows, lockingRows } from '#server/db/row-locks.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool, toBool } from '#server/db/codec.ts';
import { newRecordId, newRecordStamps } from '#server/db/record-id.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import { resolveProblems, serverProblemKeys } from '#server/features/issues/problem-issues.ts';
import { changedServerFields, createdServerFields } from './server-fields.ts';
import { movedServerColumns } from './server-rows.ts';
import { noSuchClient, refused, type WriteResult } from '#server/http/write-result.ts';

export type ServerValues = z.output<typeof serverFieldsSchema>;
export type ServerCreateValues = z.output<typeof serverCreateSchema>;

type Work = (
  trx: Transaction<Database>,
  at: string,
  record: (event: NewEvent) => void,
) => Promise<WriteResult>;

/**
 * Writes to servers from the Servers section and a client's panel. Each write and its
 * `server.*` event commit in one transaction; `onCommitted` then wakes the live feed.
 *
 * The client's row is locked first (on PostgreSQL; SQLite has one writer at a time): which of
 * its servers is primary, their labels and positions are the client's to keep consistent, and
 * the client form's writes lock the same row first (their update), so the two cannot interleave.
 *
 * The client's version goes up when its primary server changes (another one, or its fields):
 * its panel and edit form show that server, so an edit form opened before gets a 409 instead
 * of writing stale server details over the new ones.
 */
export class ServerWrites {
  readonly #db: Db;
  readonly #onCommitted: () => void;

  constructor(db: Db, onCommitted: () => void) {
    this.#db = db;
    this.#onCommitted = onCommitted;
  }

  async #run(work: Work): Promise<WriteResult> {
    const events: NewEvent[] = [];
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      const outcome = await work(trx, new Date().toISOString(), (event) => events.push(event));
      await appendEvents(trx, this.#db.dialect, events);
      return outcome;
    });
    if (events.length > 0) this.#onCommitted();
    return result;
  }

  /** The client's row, locked until the end of the transaction on PostgreSQL. */
  async #lockClient(trx: Transaction<Database>, clientId: string) {
    return lockingRows(
      trx.selectFrom('client').select(['id', 'primaryServerId']).where('id', '=', clientId),
      this.#db.dialect,
    ).executeTakeFirst();
  }

  /** The client's version goes up: what its panel shows of its primary server changed. */
  async #touchClient(trx: Transaction<Database>, clientId: string, actor: Actor, at: string) {
    await trx
      .updateTable('client')
      .set((eb) => ({ version: eb('version', '+', 1), updatedAt: at, updatedBy: actor.id }))
      .where('id', '=', clientId)
      .execute();
  }

  /** The refusal for a label another server of the client has (ignoring case), if any. */
  async #labelTaken(
    trx: Transaction<Database>,
    clientId: string,
    label: string,
    exceptId: string | null,
  ): Promise<WriteResult | undefined> {
    const others = await trx
      .selectFrom('server')
      .select(['id', 'label'])
      .where('clientId', '=', clientId)
      .execute();
    const wanted = label.toLocaleLowerCase('en');
    const clash = others.some(
      (other) => other.id !== exceptId && other.label.toLocaleLowerCase('en') === wanted,
    );
    return clash
      ? refused(400, 'This client has a server with that label already', 'label')
      : undefined;
  }

  async #credentialMissing(
    trx: Transaction<Database>,
    credentialId: string | null,
  ): Promise<WriteResult | undefined> {
    if (credentialId === null) return undefined;
    const found = await keepingRows(
      trx.selectFrom('credential').select('id').where('id', '=', credentialId),
      this.#db.dialect,
    ).executeTakeFirst();
    return found
      ? undefined
      : refused(400, 'No credential with that id in the vault', 'credentialId');
  }

  #columns(values: ServerValues) {
    return {
      label: values.label,
      host: values.host,
      port: values.port,
      username: values.username,
      uiDir: values.uiDir,
      private: fromBool(values.private, this.#db.dialect),
      credentialId: values.credentialId,
    };
  }

  /** A new server after the client's last; the client's first becomes its primary. */
  create(values: ServerCreateValues, actor: Actor): Promise<WriteResult> {
    return this.#run(async (trx, at, record) => {
      const client = await this.#lockClient(trx, values.clientId);
      if (!client) return noSuchClient();
      const refusal =
        (await this.#labelTaken(trx, client.id, values.label, null)) ??
        (await this.#credentialMissing(trx, values.credentialId));
      if (refusal) return refusal;
      const last = await trx
        .selectFrom('server')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('clientId', '=', client.id)
        .executeTakeFirst();
      const position =
        last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
      const id = newRecordId();
      await trx
        .insertInto('server')
        .values({
          id,
          clientId: client.id,
          position,
          ...this.#columns(values),
          hostKeyAlgorithm: null,
          hostKeyFingerprint: null,
          offeredHostKeyAlgorithm: null,
          offeredHostKeyFingerprint: null,
          checkReason: null,
          checkedAt: null,
          statusSince: null,
          ...newRecordStamps(actor, at),
        })
        .execute();
      if (client.primaryServerId === null) {
        await trx
          .updateTable('client')
          .set({ primaryServerId: id })
          .where('id', '=', client.id)
          .execute();
        await this.#touchClient(trx, client.id, actor, at);
      }
      const fields = createdServerFields(values);
      record({ kind: 'server.created', clientId: client.id, serverId: id, actor, at, fields });
      return { status: 'done', id };
    });
  }

  /**
   * Stores `values` over the server read at `readVersion`. A save that changes nothing writes
   * nothing (no version, no event), so it cannot turn a colleague's later save into a conflict.
   * A new host or port unpins the host key and forgets the check: both were about the machine
   * that answered there.
   */
  update(
    id: string,
    values: ServerValues,
    readVersion: number,
    actor: Actor,
  ): Promise<WriteResult> {
    return this.#run(async (trx, at, record) => {
      const clientId = await this.#clientOf(trx, id);
      if (clientId === undefined) return { status: 'not_found' };
      const client = await this.#lockClient(trx, clientId);
      const before = await trx
        .selectFrom('server')
        .selectAll('server')
        .select((eb) =>
          eb
            .selectFrom('user')
            .select('user.email')
            .whereRef('user.id', '=', 'server.updatedBy')
            .as('updatedByEmail'),
        )
        .where('server.id', '=', id)
        .executeTakeFirst();
      if (!client || !before) return { status: 'not_found' };
      if (before.version !== readVersion) return { status: 'conflict', by: before.updatedByEmail };
      const fields = changedServerFields({ ...before, private: toBool(before.private) }, values);
      if (fields.length === 0) return { status: 'done', id };
      const refusal =
        (fields.includes('label')
          ? await this.#labelTaken(trx, clientId, values.label, id)
          : undefined) ??
        (fields.includes('credential')
          ? await this.#credentialMissing(trx, values.credentialId)
          : undefined);
      if (refusal) return refusal;
      const moved = fields.includes('host') || fields.includes('port');
      await trx
        .updateTable('server')
        .set({
          ...this.#columns(values),
          ...(moved ? movedServerColumns(at) : {}),
          updatedAt: at,
          updatedBy: actor.id,
          version: before.version + 1,
        })
        .where('id', '=', id)
        .execute();
      if (client.primaryServerId === id) await this.#touchClient(trx, clientId, actor, at);
      record({ kind: 'server.updated', clientId, serverId: id, actor, at, fields });
      return { status: 'done', id };
    });
  }

  /**
   * Removes the server; when it was the primary, the next by position takes its place. A
   * password credential the client form made for it stays in the vault even when no server
   * uses it any more: the vault owns its credentials and removes them only when asked there.
   */
  delete(id: string, actor: Actor): Promise<WriteResult> {
    return this.#run(async (trx, at, record) => {
      const clientId = await this.#clientOf(trx, id);
      if (clientId === undefined) return { status: 'not_found' };
      const client = await this.#lockClient(trx, clientId);
      if (!client) return { status: 'not_found' };
      const deleted = await trx.deleteFrom('server').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return { status: 'not_found' };
      if (client.primaryServerId === id) {
        const next = await trx
          .selectFrom('server')
          .select('id')
          .where('clientId', '=', clientId)
          .orderBy('position')
          .orderBy('id')
          .executeTakeFirst();
        await trx
          .updateTable('client')
          .set({ primaryServerId: next?.id ?? null })
          .where('id', '=', clientId)
          .execute();
        await this.#touchClient(trx, clientId, actor, at);
      }
      // No check will reach this server again to resolve its problem issues: they are resolved
      // now, by the system as when a check clears them. Last, after the row writes, as it
      // takes the event lock (see appendEvent).
      await resolveProblems(trx, this.#db.dialect, serverProblemKeys(id), at);
      record({ kind: 'server.deleted', clientId, serverId: id, actor, at, fields: [] });
      return { status: 'done', id };
    });
  }

  /** Makes the server its client's primary; already the primary, nothing is written. */
  makePrimary(id: string, actor: Actor): Promise<WriteResult> {
    return this.#run(async (trx, at, record) => {
      const clientId = await this.#clientOf(trx, id);
      if (clientId === undefined) return { status: 'not_found' };
      const client = await this.#lockClient(trx, clientId);
      if (!client) return { status: 'not_found' };
      if (client.primaryServerId === id) return { status: 'done', id };
      // Read again under the client's lock: a delete that held it meanwhile has removed it.
      const still = await trx.selectFrom('server').select('id').where('id', '=', id).execute();
      if (still.length === 0) return { status: 'not_found' };
      await trx
        .updateTable('client')
        .set({ primaryServerId: id })
        .where('id', '=', clientId)
        .execute();
      await this.#touchClient(trx, clientId, actor, at);
      record({
        kind: 'server.made_primary',
        clientId,
        serverId: id,
        actor,
        at,
        fields: ['primary'],
      });
      return { status: 'done', id };
    });
  }

  /**
   * Pins the host key the last check was offered, when it is the one the person was shown
   * (`fingerprint`). The server is then unchecked: the next check authenticates to the new key.
   * Not an edit, so its version stays (a colleague's open edit form stays valid).
   */
  acceptHostKey(id: string, fingerprint: string, actor: Actor): Promise<WriteResult> {
    return this.#run(async (trx, at, record) => {
      const server = await trx
        .selectFrom('server')
        .select(['clientId', 'checkStatus', 'offeredHostKeyAlgorithm', 'offeredHostKeyFingerprint'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!server) return { status: 'not_found' };
      const offered = server.offeredHostKeyFingerprint;
      if (
        server.checkStatus !== 'host_key_changed' ||
        offered === null ||
        server.offeredHostKeyAlgorithm === null
      ) {
        return refused(400, 'Nothing to accept: the server offers no new host key');
      }
      const stale = refused(409, 'The server now offers a different key: check it again');
      if (offered !== fingerprint) return stale;
      // A check may have stored another offered key since the read.
      const updated = await trx
        .updateTable('server')
        .set({
          hostKeyAlgorithm: server.offeredHostKeyAlgorithm,
          hostKeyFingerprint: offered,
          offeredHostKeyAlgorithm: null,
          offeredHostKeyFingerprint: null,
          checkStatus: 'not_checked',
          checkReason: null,
          statusSince: at,
        })
        .where('id', '=', id)
        .where('offeredHostKeyFingerprint', '=', fingerprint)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return stale;
      record({
        kind: 'server.host_key_accepted',
        clientId: server.clientId,
        serverId: id,
        actor,
        at,
        fields: ['hostKey'],
      });
      return { status: 'done', id };
    });
  }

  /** The client of a server (it never changes), or undefined for an unknown server. */
  async #clientOf(trx: Transaction<Database>, id: string): Promise<string | undefined> {
    const row = await trx
      .selectFrom('server')
      .select('clientId')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.clientId;
  }
}
