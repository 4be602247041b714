import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { App, Run, RunState, appCreateSchema, appFieldsSchema } from '#shared/apps.ts';
import type { Actor } from '#shared/events.ts';
import { foldForSearch, parseSearch } from '#shared/client-search.ts';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';
import { toStringList } from '#server/db/codec.ts';
import { chunks, IDS_PER_STATEMENT } from '#server/db/chunks.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { lockingRows } from '#server/db/row-locks.ts';
import { newRecordId, newRecordStamps } from '#server/db/record-id.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import { resolveProblems, runProblemKey } from '#server/features/issues/problem-issues.ts';
import { presentRun } from '../runs/run-presenter.ts';
import { presentApp, type AppRow } from './app-presenter.ts';
import { noSuchClient, refused, type WriteResult } from '#server/http/write-result.ts';

export type AppValues = z.output<typeof appFieldsSchema>;
export type AppCreateValues = z.output<typeof appCreateSchema>;

export interface AppFilter {
  clientId?: string;
  serverId?: string;
  /** The state of the last run. */
  state?: RunState;
  /** Every word must be found in the name, a domain, the server's label or host, the client's name or code. */
  q?: string;
}

/** The event log's names for an app's fields (names only, never values). */
const FIELD_NAMES = {
  name: 'name',
  serverId: 'server',
  directory: 'directory',
  domains: 'domains',
  command: 'command',
} as const satisfies Record<keyof AppValues, string>;
const KEYS = Object.keys(FIELD_NAMES) as (keyof AppValues)[];

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Apps of clients: the Apps section, a client's panel, their writes. Each write commits with its
 * `app.*` event; `onCommitted` then wakes the live feed.
 */
export class AppRepository {
  readonly #db: Db;
  readonly #defaultCommand: string;
  readonly #onCommitted: () => void;

  constructor(db: Db, defaultCommand: string, onCommitted: () => void) {
    this.#db = db;
    this.#defaultCommand = defaultCommand;
    this.#onCommitted = onCommitted;
  }

  #select(db: Kysely<Database> | Transaction<Database> = this.#db.kysely) {
    return db
      .selectFrom('app')
      .innerJoin('client', 'client.id', 'app.clientId')
      .leftJoin('server', 'server.id', 'app.serverId')
      .selectAll('app')
      .select([
        'client.name as clientName',
        'client.code as clientCode',
        'server.label as serverLabel',
        'server.host as serverHost',
        'server.uiDir as serverUiDir',
      ]);
  }

  /** The newest run of each app. */
  async #lastRuns(appIds: readonly string[]): Promise<Map<string, Run>> {
    const last = new Map<string, Run>();
    for (const chunk of chunks([...appIds], IDS_PER_STATEMENT)) {
      const rows = await this.#db.kysely
        .selectFrom('run')
        .selectAll('run')
        .where('run.appId', 'in', chunk)
        .where(({ eb, selectFrom }) =>
          eb(
            'run.startedAt',
            '=',
            selectFrom('run as newer')
              .select((e) => e.fn.max('newer.startedAt').as('startedAt'))
              .whereRef('newer.appId', '=', 'run.appId'),
          ),
        )
        .execute();
      for (const row of rows) last.set(row.appId, presentRun(row));
    }
    return last;
  }

  async #present(rows: AppRow[]): Promise<App[]> {
    const last = await this.#lastRuns(rows.map((row) => row.id));
    return rows.map((row) => presentApp(row, this.#defaultCommand, last.get(row.id) ?? null));
  }

  /** In the clients' order (as the client list), each client's apps by name. */
  async list(filter: AppFilter = {}): Promise<App[]> {
    let query = this.#select();
    if (filter.clientId !== undefined) query = query.where('app.clientId', '=', filter.clientId);
    if (filter.serverId !== undefined) query = query.where('app.serverId', '=', filter.serverId);
    const rows = await query
      .orderBy('client.createdAt')
      .orderBy('client.id')
      .orderBy('app.name')
      .execute();
    let apps = await this.#present(rows);
    if (filter.state !== undefined) apps = apps.filter((a) => a.lastRun?.state === filter.state);
    const words = parseSearch(filter.q ?? '').map((term) => term.value);
    if (words.length === 0) return apps;
    return apps.filter((app) => {
      const text = foldForSearch(
        [
          app.name,
          ...app.domains,
          app.server?.label ?? '',
          app.server?.host ?? '',
          app.client.name,
          app.client.code,
        ].join('\n'),
      );
      return words.every((word) => text.includes(word));
    });
  }

  async get(id: string): Promise<App | undefined> {
    const row = await this.#select().where('app.id', '=', id).executeTakeFirst();
    return row ? (await this.#present([row]))[0] : undefined;
  }

  /** The client an app belongs to; undefined for no such app. */
  async clientOf(id: string): Promise<string | undefined> {
    const row = await this.#db.kysely
      .selectFrom('app')
      .select('clientId')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.clientId;
  }

  /** An app's runs, newest first. */
  async runs(appId: string): Promise<Run[]> {
    const rows = await this.#db.kysely
      .selectFrom('run')
      .selectAll()
      .where('appId', '=', appId)
      .orderBy('startedAt', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(presentRun);
  }

  async #write(
    work: (
      trx: Transaction<Database>,
      at: string,
      record: (event: NewEvent) => void,
    ) => Promise<WriteResult>,
  ): Promise<WriteResult> {
    const events: NewEvent[] = [];
    let result: WriteResult;
    try {
      result = await this.#db.kysely.transaction().execute(async (trx) => {
        const outcome = await work(trx, new Date().toISOString(), (event) => events.push(event));
        await appendEvents(trx, this.#db.dialect, events);
        return outcome;
      });
    } catch (error) {
      // Two saves of the same name at once: the unique index took the first.
      if (isUniqueViolation(error)) {
        return refused(409, 'This client has an app with that name already', 'name');
      }
      throw error;
    }
    if (events.length > 0) this.#onCommitted();
    return result;
  }

  /** The refusal for the values' server or name, if either is wrong for the client. */
  async #refusal(
    trx: Transaction<Database>,
    clientId: string,
    values: AppValues,
    exceptId: string | null,
  ): Promise<WriteResult | undefined> {
    const server = await trx
      .selectFrom('server')
      .select('clientId')
      .where('id', '=', values.serverId)
      .executeTakeFirst();
    if (!server || server.clientId !== clientId) {
      return refused(400, 'Must be a server of the same client', 'serverId');
    }
    const others = await trx
      .selectFrom('app')
      .select(['id', 'name'])
      .where('clientId', '=', clientId)
      .execute();
    const wanted = values.name.toLocaleLowerCase('en');
    if (others.some((o) => o.id !== exceptId && o.name.toLocaleLowerCase('en') === wanted)) {
      return refused(400, 'This client has an app with that name already', 'name');
    }
    return undefined;
  }

  #columns(values: AppValues) {
    return {
      name: values.name,
      serverId: values.serverId,
      directory: values.directory,
      domains: JSON.stringify(values.domains),
      command: values.command === '' ? null : values.command,
    };
  }

  create(values: AppCreateValues, actor: Actor): Promise<WriteResult> {
    return this.#write(async (trx, at, record) => {
      const client = await trx
        .selectFrom('client')
        .select('id')
        .where('id', '=', values.clientId)
        .executeTakeFirst();
      if (!client) {
        return noSuchClient();
      }
      const refusal = await this.#refusal(trx, client.id, values, null);
      if (refusal) return refusal;
      const id = newRecordId();
      await trx
        .insertInto('app')
        .values({
          id,
          clientId: client.id,
          ...this.#columns(values),
          ...newRecordStamps(actor, at),
        })
        .execute();
      const defaults: AppValues = {
        name: '',
        serverId: '',
        directory: '',
        domains: [],
        command: null,
      };
      const fields = KEYS.filter((key) => !sameValue(values[key], defaults[key])).map(
        (key) => FIELD_NAMES[key],
      );
      record({
        kind: 'app.created',
        clientId: client.id,
        appId: id,
        serverId: values.serverId,
        actor,
        at,
        fields,
      });
      return { status: 'done', id };
    });
  }

  /**
   * Stores `values` over the app read at `readVersion`. A save that changes nothing writes
   * nothing, so it cannot turn a colleague's later save into a conflict.
   */
  update(id: string, values: AppValues, readVersion: number, actor: Actor): Promise<WriteResult> {
    return this.#write(async (trx, at, record) => {
      const before = await trx
        .selectFrom('app')
        .selectAll('app')
        .select((eb) =>
          eb
            .selectFrom('user')
            .select('user.email')
            .whereRef('user.id', '=', 'app.updatedBy')
            .as('updatedByEmail'),
        )
        .where('app.id', '=', id)
        .executeTakeFirst();
      if (!before) return { status: 'not_found' };
      if (before.version !== readVersion) return { status: 'conflict', by: before.updatedByEmail };
      const stored: AppValues = {
        name: before.name,
        serverId: before.serverId ?? '',
        directory: before.directory,
        domains: toStringList(before.domains),
        command: before.command,
      };
      const next = { ...values, command: values.command === '' ? null : values.command };
      const fields = KEYS.filter((key) => !sameValue(stored[key], next[key])).map(
        (key) => FIELD_NAMES[key],
      );
      if (fields.length === 0) return { status: 'done', id };
      const refusal = await this.#refusal(trx, before.clientId, values, id);
      if (refusal) return refusal;
      // The read above took no lock: a save on another connection may have won since. On
      // PostgreSQL this update waits for that one's row lock and then matches no row.
      const updated = await trx
        .updateTable('app')
        .set({
          ...this.#columns(values),
          updatedAt: at,
          updatedBy: actor.id,
          version: readVersion + 1,
        })
        .where('id', '=', id)
        .where('version', '=', readVersion)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        const winner = await trx
          .selectFrom('app')
          .innerJoin('user', 'user.id', 'app.updatedBy')
          .select('user.email')
          .where('app.id', '=', id)
          .executeTakeFirst();
        return { status: 'conflict', by: winner?.email ?? null };
      }
      record({
        kind: 'app.updated',
        clientId: before.clientId,
        appId: id,
        serverId: values.serverId,
        actor,
        at,
        fields,
      });
      return { status: 'done', id };
    });
  }

  /** Removes the app with its runs and their logs; refused while one of its runs is running. */
  delete(id: string, actor: Actor): Promise<WriteResult> {
    return this.#write(async (trx, at, record) => {
      // Locked on PostgreSQL: a deploy starting meanwhile holds the row until its run is
      // recorded, which the look for a running run below then finds.
      const app = await lockingRows(
        trx.selectFrom('app').select(['clientId', 'serverId']).where('id', '=', id),
        this.#db.dialect,
      ).executeTakeFirst();
      if (!app) return { status: 'not_found' };
      const running = await trx
        .selectFrom('run')
        .select(['startedByName', 'startedAt'])
        .where('appId', '=', id)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (running) {
        return refused(
          409,
          `${running.startedByName} is running this app: cancel the run or wait for it to end first`,
        );
      }
      await trx
        .deleteFrom('runLog')
        .where('runId', 'in', (eb) => eb.selectFrom('run').select('id').where('appId', '=', id))
        .execute();
      await trx.deleteFrom('run').where('appId', '=', id).execute();
      await trx.deleteFrom('app').where('id', '=', id).execute();
      // No later run of this app will resolve its failed-run issue: it is resolved now, by the
      // system as when a run succeeds. Last, after the row writes, as it takes the event lock.
      await resolveProblems(trx, this.#db.dialect, [runProblemKey(id)], at);
      record({
        kind: 'app.deleted',
        clientId: app.clientId,
        appId: id,
        ...(app.serverId ? { serverId: app.serverId } : {}),
        actor,
        at,
        fields: [],
      });
      return { status: 'done', id };
    });
  }
}
