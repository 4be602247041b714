import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  issueCommentSchema,
  issueSchema,
  type Issue,
  type IssueCreate,
  type IssueUpdate,
} from '#shared/issues.ts';
import { apiRequest } from '#client/lib/api-client.ts';
import { clientKeys, issueKeys } from '#client/lib/query-keys.ts';
import { issuePath } from './issue-queries.ts';

/** After a write to an issue: the issue itself, every list of issues, its client's history. */
async function refreshAfter(queryClient: QueryClient, issue: Issue) {
  queryClient.setQueryData(issueKeys.detail(issue.id), issue);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: issueKeys.list() }),
    queryClient.invalidateQueries({ queryKey: issueKeys.comments(issue.id) }),
    queryClient.invalidateQueries({ queryKey: clientKeys.history(issue.client.id) }),
  ]);
}

export type SaveIssueRequest =
  { kind: 'create'; input: IssueCreate } | { kind: 'update'; id: string; input: IssueUpdate };

export function useSaveIssue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveIssueRequest): Promise<Issue> =>
      request.kind === 'create'
        ? apiRequest('/api/issues', issueSchema, { method: 'POST', body: request.input })
        : apiRequest(issuePath(request.id), issueSchema, { method: 'PUT', body: request.input }),
    onSuccess: (issue) => refreshAfter(queryClient, issue),
  });
}

/** Resolve or reopen: answered with the issue as it now is. */
export function useSetIssueState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to: 'resolve' | 'reopen' }) =>
      apiRequest(issuePath(id, `/${to}`), issueSchema, { method: 'POST' }),
    onSuccess: (issue) => refreshAfter(queryClient, issue),
  });
}

export function useAddComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      apiRequest(issuePath(id, '/comments'), issueCommentSchema, {
        method: 'POST',
        body: { text },
      }),
    onSuccess: (comment) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: issueKeys.comments(comment.issueId) }),
        // Its comment count, in the issue and in the lists.
        queryClient.invalidateQueries({ queryKey: issueKeys.detail(comment.issueId) }),
        queryClient.invalidateQueries({ queryKey: issueKeys.list() }),
      ]),
  });
}
