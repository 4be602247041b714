import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Actor } from '#shared/events.ts';
import type { issueCreateSchema, issueUpdateSchema } from '#shared/issues.ts';
import type { Db } from '#server/db/database.ts';
import { keepingRows } from '#server/db/row-locks.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool } from '#server/db/codec.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { appendEvents, type NewEvent } from '#server/realtime/event-log.ts';
import { noSuchClient, refused, type WriteResult } from '#server/http/write-result.ts';
import { parseAccessTags } from '#server/auth/access-tags.ts';
import { canReachClient } from '#server/auth/tag-scope.ts';

export type IssueCreateValues = z.output<typeof issueCreateSchema>;
export type IssueUpdateValues = Omit<z.output<typeof issueUpdateSchema>, 'version'>;

/** The fields of an issue a person edits, in the order an `issue.updated` event names them. */
const EDITED_FIELDS = ['title', 'text', 'kind', 'serverId', 'appId', 'assigneeId'] as const;

type Work = (
  trx: Transaction<Database>,
  at: string,
  record: (event: Omit<NewEvent, 'actor' | 'at'>) => void,
) => Promise<WriteResult>;

/** What an issue's events name besides the issue: its client, and its server or app if any. */
function subjectOf(issue: {
  id: string;
  clientId: string;
  serverId: string | null;
  appId: string | null;
}) {
  return {
    clientId: issue.clientId,
    issueId: issue.id,
    ...(issue.serverId === null ? {} : { serverId: issue.serverId }),
    ...(issue.appId === null ? {} : { appId: issue.appId }),
  };
}

/**
 * Writes to issues by people: open, edit, resolve, reopen, comment. Each write and its
 * `issue.*` event commit in one transaction; `onCommitted` then wakes the live feed. Events name
 * the fields that changed (a comment is the field `comment`), never their values.
 */
export class IssueWrites {
  readonly #db: Db;
  readonly #onCommitted: () => void;

  constructor(db: Db, onCommitted: () => void) {
    this.#db = db;
    this.#onCommitted = onCommitted;
  }

  async #run(actor: Actor, work: Work): Promise<WriteResult> {
    const events: NewEvent[] = [];
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      const outcome = await work(trx, at, (event) => events.push({ ...event, actor, at }));
      await appendEvents(trx, this.#db.dialect, events);
      return outcome;
    });
    if (events.length > 0) this.#onCommitted();
    return result;
  }

  /** The refusal for a server, app or assignee the issue cannot name, if any. */
  async #refusalOf(
    trx: Transaction<Database>,
    clientId: string,
    values: { serverId: string | null; appId: string | null; assigneeId: string | null },
    checkAssignee: boolean,
  ): Promise<WriteResult | undefined> {
    if (
      values.serverId !== null &&
      !(await this.#clientHas(trx, 'server', values.serverId, clientId))
    ) {
      return refused(400, 'This client has no server with that id', 'serverId');
    }
    if (values.appId !== null && !(await this.#clientHas(trx, 'app', values.appId, clientId))) {
      return refused(400, 'This client has no app with that id', 'appId');
    }
    if (checkAssignee && values.assigneeId !== null) {
      const person = await trx
        .selectFrom('user')
        .select(['id', 'tags'])
        .where('id', '=', values.assigneeId)
        .where('disabled', '=', fromBool(false, this.#db.dialect))
        .executeTakeFirst();
      if (!person) return refused(400, 'No active person with that id', 'assigneeId');
      // Given an issue they could not open, they would never see it was theirs.
      if (!(await canReachClient(trx, { tags: parseAccessTags(person.tags) }, clientId))) {
        return refused(
          400,
          "This person's tags leave this client out: they cannot see it",
          'assigneeId',
        );
      }
    }
    return undefined;
  }

  /** Whether the client has that server or app, kept until the issue is written (row-locks.ts). */
  async #clientHas(
    trx: Transaction<Database>,
    table: 'server' | 'app',
    id: string,
    clientId: string,
  ): Promise<boolean> {
    const row = await keepingRows(
      trx.selectFrom(table).select('id').where('id', '=', id).where('clientId', '=', clientId),
      this.#db.dialect,
    ).executeTakeFirst();
    return row !== undefined;
  }

  create(values: IssueCreateValues, actor: Actor): Promise<WriteResult> {
    return this.#run(actor, async (trx, at, record) => {
      const client = await keepingRows(
        trx.selectFrom('client').select('id').where('id', '=', values.clientId),
        this.#db.dialect,
      ).executeTakeFirst();
      if (!client) {
        return noSuchClient();
      }
      const refusal = await this.#refusalOf(trx, client.id, values, true);
      if (refusal) return refusal;
      const id = newRecordId();
      await trx
        .insertInto('issue')
        .values({
          id,
          clientId: client.id,
          serverId: values.serverId,
          appId: values.appId,
          kind: values.kind,
          state: 'open',
          title: values.title,
          text: values.text,
          problemKey: null,
          authorId: actor.id,
          authorName: actor.name,
          assigneeId: values.assigneeId,
          createdAt: at,
          updatedAt: at,
          resolvedAt: null,
          resolvedById: null,
          resolvedByName: null,
          version: 1,
        })
        .execute();
      // What the new issue has: its title and kind always, the rest when given.
      const fields = EDITED_FIELDS.filter(
        (field) => values[field] !== null && values[field] !== '',
      );
      record({
        kind: 'issue.opened',
        ...subjectOf({ id, ...values, clientId: client.id }),
        fields,
      });
      return { status: 'done', id };
    });
  }

  /**
   * Stores `values` over the issue read at `readVersion`. A save that changes nothing writes
   * nothing. The assignee is checked only when it changes: an issue still given to a person
   * whose account was disabled since can be edited without giving it to someone else.
   */
  update(
    id: string,
    values: IssueUpdateValues,
    readVersion: number,
    actor: Actor,
  ): Promise<WriteResult> {
    return this.#run(actor, async (trx, at, record) => {
      const before = await trx
        .selectFrom('issue')
        .select(['clientId', 'title', 'text', 'kind', 'serverId', 'appId', 'assigneeId', 'version'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!before) return { status: 'not_found' };
      if (before.version !== readVersion)
        return { status: 'conflict', by: await this.#lastBy(trx, id) };
      const fields = EDITED_FIELDS.filter((field) => before[field] !== values[field]);
      if (fields.length === 0) return { status: 'done', id };
      const refusal = await this.#refusalOf(
        trx,
        before.clientId,
        values,
        values.assigneeId !== before.assigneeId,
      );
      if (refusal) return refusal;
      // A writer on another instance may have won between the read and this update.
      const updated = await trx
        .updateTable('issue')
        .set({
          title: values.title,
          text: values.text,
          kind: values.kind,
          serverId: values.serverId,
          appId: values.appId,
          assigneeId: values.assigneeId,
          updatedAt: at,
          version: readVersion + 1,
        })
        .where('id', '=', id)
        .where('version', '=', readVersion)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        return { status: 'conflict', by: await this.#lastBy(trx, id) };
      }
      record({
        kind: 'issue.updated',
        ...subjectOf({
          id,
          clientId: before.clientId,
          serverId: values.serverId,
          appId: values.appId,
        }),
        fields,
      });
      return { status: 'done', id };
    });
  }

  /** Who wrote the issue's newest event (as history names them), for a 409's message. */
  async #lastBy(trx: Transaction<Database>, id: string): Promise<string | null> {
    const row = await trx
      .selectFrom('event')
      .select('actorName')
      .where('issueId', '=', id)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.actorName ?? null;
  }

  /** Resolved by this person; an issue resolved already is left as it is, with no event. */
  resolve(id: string, actor: Actor): Promise<WriteResult> {
    return this.#run(actor, async (trx, at, record) => {
      const issue = await this.#current(trx, id);
      if (!issue) return { status: 'not_found' };
      if (issue.state === 'resolved') return { status: 'done', id };
      await trx
        .updateTable('issue')
        .set((eb) => ({
          state: 'resolved',
          resolvedAt: at,
          resolvedById: actor.id,
          resolvedByName: actor.name,
          updatedAt: at,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
      record({ kind: 'issue.resolved', ...subjectOf(issue), fields: ['state'] });
      return { status: 'done', id };
    });
  }

  /**
   * Open again; an open issue is left as it is, with no event. A problem the system opened
   * can be open only once: while the system has opened a newer issue for the same problem,
   * reopening the old one is refused (409), as two open issues would say the same thing.
   */
  async reopen(id: string, actor: Actor): Promise<WriteResult> {
    let problemKey: string | null = null;
    try {
      return await this.#run(actor, async (trx, at, record) => {
        const issue = await this.#current(trx, id);
        if (!issue) return { status: 'not_found' };
        if (issue.state === 'open') return { status: 'done', id };
        problemKey = issue.problemKey;
        if (problemKey !== null) {
          const refusal = await this.#openAlready(trx, problemKey);
          if (refusal) return refusal;
        }
        await trx
          .updateTable('issue')
          .set((eb) => ({
            state: 'open',
            resolvedAt: null,
            resolvedById: null,
            resolvedByName: null,
            updatedAt: at,
            version: eb('version', '+', 1),
          }))
          .where('id', '=', id)
          .execute();
        record({ kind: 'issue.reopened', ...subjectOf(issue), fields: ['state'] });
        return { status: 'done', id };
      });
    } catch (error) {
      // Another issue about the same problem was opened after the check above and committed
      // first (on PostgreSQL, where the check does not wait for it): the unique index on open
      // problems refused this one. The transaction is over, so the open one is read anew.
      if (problemKey === null || !isUniqueViolation(error)) throw error;
      return (
        (await this.#openAlready(this.#db.kysely, problemKey)) ??
        refused(409, 'Another issue about this problem was opened meanwhile: reload it')
      );
    }
  }

  /** The 409 for reopening an issue while another about its problem is open, if one is. */
  async #openAlready(db: Kysely<Database>, problemKey: string): Promise<WriteResult | undefined> {
    const other = await db
      .selectFrom('issue')
      .select('id')
      .where('problemKey', '=', problemKey)
      .where('state', '=', 'open')
      .executeTakeFirst();
    if (!other) return undefined;
    return refused(
      409,
      `A newer issue about this problem is open (${other.id}): follow that one instead`,
    );
  }

  /**
   * A comment by this person. It does not raise the issue's version (which counts edits of the
   * issue itself): a colleague's comment must not turn an edit in progress into a conflict.
   */
  comment(issueId: string, text: string, actor: Actor): Promise<WriteResult> {
    return this.#run(actor, async (trx, at, record) => {
      const issue = await this.#current(trx, issueId);
      if (!issue) return { status: 'not_found' };
      const id = newRecordId();
      await trx
        .insertInto('issueComment')
        .values({ id, issueId, authorId: actor.id, authorName: actor.name, text, createdAt: at })
        .execute();
      await trx.updateTable('issue').set({ updatedAt: at }).where('id', '=', issueId).execute();
      record({ kind: 'issue.commented', ...subjectOf(issue), fields: ['comment'] });
      return { status: 'done', id };
    });
  }

  /** The issue's row, locked until the end of the transaction on PostgreSQL. */
  async #current(trx: Transaction<Database>, id: string) {
    let query = trx
      .selectFrom('issue')
      .select(['id', 'clientId', 'serverId', 'appId', 'state', 'problemKey'])
      .where('id', '=', id);
    if (this.#db.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }
}
