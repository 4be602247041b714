import { z } from 'zod';
import { recordVersionSchema } from './record-version.ts';
import { nextCursorSchema, pageQuerySchema } from './pages.ts';
import { clientIdSchema, lineText, plainText, trimmedText } from './clients.ts';
import { serverIdSchema } from './servers.ts';
import { appIdSchema } from './apps.ts';

export const issueIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be an issue id');

/** A note is what colleagues must know; a problem is something wrong to be put right. */
export const ISSUE_KINDS = ['note', 'problem'] as const;
export const issueKindSchema = z.enum(ISSUE_KINDS, { error: 'Must be note or problem' });
export type IssueKind = z.infer<typeof issueKindSchema>;

export const ISSUE_STATES = ['open', 'resolved'] as const;
export const issueStateSchema = z.enum(ISSUE_STATES, { error: 'Must be open or resolved' });
export type IssueState = z.infer<typeof issueStateSchema>;

/**
 * What a problem the system opened by itself is about; null for an issue a person opened.
 * The system resolves it when the server is reachable again or a later run succeeds.
 */
export const SYSTEM_PROBLEMS = ['server_unreachable', 'host_key_changed', 'run_failed'] as const;
export const systemProblemSchema = z.enum(SYSTEM_PROBLEMS);
export type SystemProblem = z.infer<typeof systemProblemSchema>;

/** Who wrote or resolved: `name` is their email as recorded then (a display name can be changed). */
const personSchema = z.object({ id: z.string().nullable(), name: z.string() });

/** An issue as the API presents it. */
export const issueSchema = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string(), code: z.string() }),
  server: z.object({ id: z.string(), label: z.string() }).nullable(),
  app: z.object({ id: z.string(), name: z.string() }).nullable(),
  kind: issueKindSchema,
  state: issueStateSchema,
  title: z.string(),
  text: z.string(),
  /** Opened by the system (a check or a run): null id, name 'system'. */
  author: personSchema,
  assignee: z.object({ id: z.string(), name: z.string() }).nullable(),
  problem: systemProblemSchema.nullable(),
  commentCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: personSchema.nullable(),
  version: z.number(),
});
export type Issue = z.infer<typeof issueSchema>;

export const issueListSchema = z.object({
  issues: z.array(issueSchema),
  nextCursor: nextCursorSchema,
});
export type IssueList = z.infer<typeof issueListSchema>;

/**
 * `GET /api/issues`: the issues the person can see, newest first; `state` defaults to open,
 * `all` for both; `assigneeId=me` for one's own.
 */
export const issueListQuerySchema = z.object({
  clientId: clientIdSchema.optional(),
  serverId: serverIdSchema.optional(),
  appId: appIdSchema.optional(),
  state: z
    .enum([...ISSUE_STATES, 'all'], { error: 'Must be open, resolved or all' })
    .default('open'),
  kind: issueKindSchema.optional(),
  assigneeId: z
    .string()
    .regex(/^(me|[A-Za-z0-9_-]{1,64})$/, 'Must be a person id or me')
    .optional(),
  q: z.string().max(200, 'At most 200 characters').optional(),
  ...pageQuerySchema.shape,
});
export type IssueListQuery = z.input<typeof issueListQuerySchema>;

const titleSchema = lineText(200).min(1, 'Enter a title');
const bodySchema = plainText(20_000);
const personIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a person id');

/** `POST /api/issues`: a new issue of a client, optionally about one of its servers or apps. */
export const issueCreateSchema = z.object({
  clientId: clientIdSchema,
  serverId: serverIdSchema.nullable().default(null),
  appId: appIdSchema.nullable().default(null),
  kind: issueKindSchema.default('note'),
  title: titleSchema,
  text: bodySchema.default(''),
  assigneeId: personIdSchema.nullable().default(null),
});
export type IssueCreate = z.input<typeof issueCreateSchema>;

/** `PUT /api/issues/:id`: carries the version it was read at (409 on a stale save). */
export const issueUpdateSchema = z.object({
  serverId: serverIdSchema.nullable(),
  appId: appIdSchema.nullable(),
  kind: issueKindSchema,
  title: titleSchema,
  text: bodySchema,
  assigneeId: personIdSchema.nullable(),
  version: recordVersionSchema,
});
export type IssueUpdate = z.input<typeof issueUpdateSchema>;

/** A comment on an issue, oldest first (`GET /api/issues/:id/comments`). */
export const issueCommentSchema = z.object({
  id: z.string(),
  issueId: z.string(),
  author: personSchema,
  text: z.string(),
  createdAt: z.string(),
});
export type IssueComment = z.infer<typeof issueCommentSchema>;
export const issueCommentListSchema = z.object({ comments: z.array(issueCommentSchema) });

/** `POST /api/issues/:id/comments`. */
export const issueCommentCreateSchema = z.object({
  text: trimmedText(20_000).min(1, 'Write a comment'),
});

/** `GET /api/issues/assignees?clientId=`: only those who can see that client. */
export const assigneesQuerySchema = z.object({ clientId: clientIdSchema.optional() });

/** `GET /api/issues/assignees`: the people an issue can be given to (active staff). */
export const assigneeListSchema = z.object({
  people: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })),
});
