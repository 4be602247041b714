import type { Kysely } from 'kysely';
import type { Issue, IssueComment, IssueKind } from '#shared/issues.ts';
import { foldForSearch, parseSearch } from '#shared/client-search.ts';
import type { Database } from '#server/db/schema.ts';
import { fromBool } from '#server/db/codec.ts';
import type { Dialect } from '#server/db/database.ts';
import { canSeeTags } from '#shared/people.ts';
import { parseAccessTags } from '#server/auth/access-tags.ts';
import { clientTagsOf } from '#server/auth/tag-scope.ts';
import { presentComment, presentIssue } from './issue-presenter.ts';

export interface IssueFilter {
  clientId?: string;
  serverId?: string;
  appId?: string;
  /** 'all' for open and resolved. */
  state: 'open' | 'resolved' | 'all';
  kind?: IssueKind;
  /** A person's id (the route has turned `me` into the caller's). */
  assigneeId?: string;
  /** Every word (or "quoted words") in the title, text, or the client's name or code. */
  q?: string;
  /** The clients the person may see; null: every client. */
  reachable: ReadonlySet<string> | null;
}

/** Issues as the Issues section, a client's panel and an issue's page read them. */
export class IssueRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  #select() {
    return this.#db
      .selectFrom('issue')
      .innerJoin('client', 'client.id', 'issue.clientId')
      .leftJoin('server', 'server.id', 'issue.serverId')
      .leftJoin('app', 'app.id', 'issue.appId')
      .leftJoin('user as assignee', 'assignee.id', 'issue.assigneeId')
      .selectAll('issue')
      .select((eb) => [
        'client.name as clientName',
        'client.code as clientCode',
        'server.label as serverLabel',
        'app.name as appName',
        'assignee.name as assigneeName',
        eb
          .selectFrom('issueComment')
          .select((c) => c.fn.countAll().as('n'))
          .whereRef('issueComment.issueId', '=', 'issue.id')
          .as('commentCount'),
      ]);
  }

  /** Newest first (by when they were opened, then id). */
  async list(filter: IssueFilter): Promise<Issue[]> {
    let query = this.#select();
    if (filter.clientId !== undefined) query = query.where('issue.clientId', '=', filter.clientId);
    if (filter.serverId !== undefined) query = query.where('issue.serverId', '=', filter.serverId);
    if (filter.appId !== undefined) query = query.where('issue.appId', '=', filter.appId);
    if (filter.state !== 'all') query = query.where('issue.state', '=', filter.state);
    if (filter.kind !== undefined) query = query.where('issue.kind', '=', filter.kind);
    if (filter.assigneeId !== undefined) {
      query = query.where('issue.assigneeId', '=', filter.assigneeId);
    }
    const rows = await query
      .orderBy('issue.createdAt', 'desc')
      .orderBy('issue.id', 'desc')
      .execute();
    const { reachable } = filter;
    const seen = reachable === null ? rows : rows.filter((row) => reachable.has(row.clientId));
    const issues = seen.map(presentIssue);
    const words = parseSearch(filter.q ?? '').map((term) => term.value);
    if (words.length === 0) return issues;
    return issues.filter((issue) => {
      const text = foldForSearch(
        [issue.title, issue.text, issue.client.name, issue.client.code].join('\n'),
      );
      return words.every((word) => text.includes(word));
    });
  }

  async get(id: string): Promise<Issue | undefined> {
    const row = await this.#select().where('issue.id', '=', id).executeTakeFirst();
    return row ? presentIssue(row) : undefined;
  }

  /** The client an issue belongs to, or undefined for an unknown issue. */
  async clientOf(id: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom('issue')
      .select('clientId')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.clientId;
  }

  /** Oldest first. */
  async comments(issueId: string): Promise<IssueComment[]> {
    const rows = await this.#db
      .selectFrom('issueComment')
      .selectAll('issueComment')
      .where('issueComment.issueId', '=', issueId)
      .orderBy('issueComment.createdAt')
      .orderBy('issueComment.id')
      .execute();
    return rows.map(presentComment);
  }

  /**
   * The people an issue can be given to: every account not disabled, by name; with `clientId`,
   * only those whose tags reach that client (the others could not open the issue).
   */
  async assignees(clientId?: string): Promise<{ id: string; name: string; email: string }[]> {
    const rows = await this.#db
      .selectFrom('user')
      .select(['id', 'name', 'email', 'tags'])
      .where('disabled', '=', fromBool(false, this.#dialect))
      .orderBy('name')
      .orderBy('email')
      .execute();
    const clientTags =
      clientId === undefined
        ? undefined
        : ((await clientTagsOf(this.#db, [clientId])).get(clientId) ?? []);
    return rows
      .filter(
        (row) =>
          clientTags === undefined || canSeeTags({ tags: parseAccessTags(row.tags) }, clientTags),
      )
      .map(({ id, name, email }) => ({ id, name, email }));
  }
}
