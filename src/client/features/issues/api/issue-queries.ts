import { queryOptions } from '@tanstack/react-query';
import {
  assigneeListSchema,
  issueCommentListSchema,
  issueListSchema,
  issueSchema,
  type IssueListQuery,
} from '#shared/issues.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { issueKeys } from '#client/lib/query-keys.ts';

export const issuePath = (id: string, action = '') =>
  `/api/issues/${encodeURIComponent(id)}${action}`;

type IssueListFilter = Omit<IssueListQuery, 'limit' | 'cursor' | 'serverId' | 'appId'>;

/** The issues the filter keeps, newest first (the API filters, not the page). */
export function issuesQuery(filter: IssueListFilter) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) {
    if (typeof value === 'string' && value !== '') params.set(name, value);
  }
  const search = params.toString();
  return queryOptions({
    queryKey: issueKeys.list(filter),
    queryFn: ({ signal }) =>
      apiRequest(`/api/issues${search ? `?${search}` : ''}`, issueListSchema, { signal }),
    select: (data) => data.issues,
  });
}

export function issueQuery(id: string) {
  return queryOptions({
    queryKey: issueKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(issuePath(id), issueSchema, { signal }),
  });
}

/** An issue's comments, oldest first. */
export function issueCommentsQuery(id: string) {
  return queryOptions({
    queryKey: issueKeys.comments(id),
    queryFn: ({ signal }) =>
      apiRequest(issuePath(id, '/comments'), issueCommentListSchema, { signal }),
    select: (data) => data.comments,
  });
}

/** The people an issue can be given to; with a client, only those who can see it. */
export function assigneesQuery(clientId?: string) {
  const query = clientId === undefined ? '' : `?clientId=${encodeURIComponent(clientId)}`;
  return queryOptions({
    queryKey: issueKeys.assignees(clientId),
    queryFn: ({ signal }) =>
      apiRequest(`/api/issues/assignees${query}`, assigneeListSchema, { signal }),
    select: (data) => data.people,
    staleTime: 60_000,
  });
}
