import type { Selectable } from 'kysely';
import type { Issue, IssueComment, IssueKind, IssueState } from '#shared/issues.ts';
import type { IssueCommentTable, IssueTable } from '#server/db/schema.ts';
import { toIso } from '#server/db/codec.ts';
import { problemOfKey } from './problem-issues.ts';

/**
 * An issue's row with what it names: its client, server and app, its assignee's display name
 * and how many comments it has.
 */
export type IssueRow = Selectable<IssueTable> & {
  clientName: string;
  clientCode: string;
  serverLabel: string | null;
  appName: string | null;
  assigneeName: string | null;
  commentCount: number | string | bigint | null;
};

/**
 * Who wrote or resolved something, as it was recorded: their email, as history names people
 * ('system' for the system). Not their display name, which anyone can change at will: renamed
 * to a colleague's name, a person could comment and rename back.
 */
function personOf(id: string | null, recorded: string) {
  return { id, name: recorded };
}

export function presentIssue(row: IssueRow): Issue {
  const resolved = row.resolvedAt !== null;
  return {
    id: row.id,
    client: { id: row.clientId, name: row.clientName, code: row.clientCode },
    server:
      row.serverId === null || row.serverLabel === null
        ? null
        : { id: row.serverId, label: row.serverLabel },
    app: row.appId === null || row.appName === null ? null : { id: row.appId, name: row.appName },
    kind: row.kind as IssueKind,
    state: row.state as IssueState,
    title: row.title,
    text: row.text,
    author: personOf(row.authorId, row.authorName),
    assignee:
      row.assigneeId === null || row.assigneeName === null
        ? null
        : { id: row.assigneeId, name: row.assigneeName },
    problem: problemOfKey(row.problemKey),
    commentCount: Number(row.commentCount ?? 0),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
    resolvedAt: resolved ? toIso(row.resolvedAt!) : null,
    resolvedBy: resolved ? personOf(row.resolvedById, row.resolvedByName ?? '') : null,
    version: row.version,
  };
}

export type IssueCommentRow = Selectable<IssueCommentTable>;

export function presentComment(row: IssueCommentRow): IssueComment {
  return {
    id: row.id,
    issueId: row.issueId,
    author: personOf(row.authorId, row.authorName),
    text: row.text,
    createdAt: toIso(row.createdAt),
  };
}
