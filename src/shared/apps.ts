import { z } from 'zod';
import { recordVersionSchema } from './record-version.ts';
import { nextCursorSchema, pageQuerySchema } from './pages.ts';
import { clientIdSchema, commandWord, domainSchema } from './clients.ts';
import { serverIdSchema } from './servers.ts';
import { validateTemplate } from './deploy-template.ts';

const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
export const appIdSchema = z.string().regex(idPattern, 'Must be an app id');
export const runIdSchema = z.string().regex(idPattern, 'Must be a run id');

/** How a run ended, or that it still runs. */
export const RUN_STATES = ['running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
export const runStateSchema = z.enum(RUN_STATES, {
  error: `Must be one of ${RUN_STATES.join(', ')}`,
});
export type RunState = z.infer<typeof runStateSchema>;

/** A run's log keeps at most this many bytes of output; the log says where it was cut. */
export const RUN_LOG_CAP_BYTES = 5 * 1024 * 1024;
/**
 * And at most this many lines: each is a row, so 5 MB of empty lines would be five million
 * rows to store, stream and read back.
 */
export const RUN_LOG_CAP_LINES = 50_000;
/** Runs kept per app: older ones are deleted with their logs when a new one starts. */
export const RUNS_KEPT_PER_APP = 50;

/**
 * The run command of an app: a template with the deployment command's placeholders and quoting
 * rules (deploy-template.ts); `{uiDir}` is the app's directory. null: APP_RUN_TEMPLATE.
 */
export const appCommandSchema = z
  .string()
  .trim()
  .max(2000, 'Must be at most 2000 characters')
  .superRefine((value, ctx) => {
    const problem = validateTemplate(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `The command ${problem}` });
  });

/** An app's fields as a person edits them. */
export const appFieldsSchema = z.object({
  name: commandWord(100).min(1, 'Enter a name, such as web or api'),
  serverId: serverIdSchema,
  /** '' for the server's uiDir. */
  directory: commandWord(1024).default(''),
  domains: z.array(domainSchema).max(50, 'At most 50 domains').default([]),
  command: appCommandSchema.nullable().default(null),
});
export type AppFields = z.input<typeof appFieldsSchema>;

/** `POST /api/apps`: a new app of a client, on one of that client's servers. */
export const appCreateSchema = appFieldsSchema.extend({ clientId: clientIdSchema });
export type AppCreate = z.input<typeof appCreateSchema>;

/** `PUT /api/apps/:id`: carries the version it was read at (409 on a stale save). */
export const appUpdateSchema = appFieldsSchema.extend({
  version: recordVersionSchema,
});
export type AppUpdate = z.input<typeof appUpdateSchema>;

/**
 * A deploy's request: the version of the app the person confirmed, so that a command changed
 * since they read it is not run in their name. Left out (a script), the current one runs.
 */
export const runStartSchema = z
  .object({
    version: recordVersionSchema.optional(),
    // Where the Deploy dialog said it runs: a server or directory changed since is refused.
    host: z.string('Must be text').max(1000, 'At most 1000 characters').optional(),
    directory: z.string('Must be text').max(4096, 'At most 4096 characters').optional(),
  })
  // No body at all reaches the schema as null.
  .nullish();
export type RunStart = z.input<typeof runStartSchema>;

const personSchema = z.object({ id: z.string().nullable(), name: z.string() });

/** A run as the API presents it; its log comes from `GET /api/runs/:id/log`. */
export const runSchema = z.object({
  id: z.string(),
  appId: z.string(),
  clientId: z.string(),
  serverId: z.string().nullable(),
  state: runStateSchema,
  /** The command as people are shown it: the access token and every credential masked. */
  command: z.string(),
  startedBy: personSchema,
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Milliseconds from start to end; null while it runs. */
  durationMs: z.number().nullable(),
  exitCode: z.number().nullable(),
  /** The signal that ended the remote command, when one did ('TERM', …). */
  signal: z.string().nullable(),
  /** Why it failed to start or was interrupted ('host key changed: …'); null otherwise. */
  reason: z.string().nullable(),
  logBytes: z.number(),
  logTruncated: z.boolean(),
  /** Someone asked it to stop; null otherwise. */
  cancelRequestedAt: z.string().nullable(),
});
export type Run = z.infer<typeof runSchema>;

export const runListSchema = z.object({ runs: z.array(runSchema), nextCursor: nextCursorSchema });
export type RunList = z.infer<typeof runListSchema>;

/** An app as the API presents it, with its last run. */
export const appSchema = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string(), code: z.string() }),
  /** null once its server was deleted: it cannot run until one is chosen. */
  server: z.object({ id: z.string(), label: z.string(), host: z.string() }).nullable(),
  name: z.string(),
  /** As set: '' for the server's uiDir. */
  directory: z.string(),
  /** The directory a run uses. */
  effectiveDirectory: z.string(),
  domains: z.array(z.string()),
  /** As set: null for APP_RUN_TEMPLATE. */
  command: z.string().nullable(),
  /** The template a run uses. */
  effectiveCommand: z.string(),
  lastRun: runSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number(),
});
export type App = z.infer<typeof appSchema>;

export const appListSchema = z.object({ apps: z.array(appSchema), nextCursor: nextCursorSchema });
export type AppList = z.infer<typeof appListSchema>;

/** `GET /api/apps`: every app the person can see, or one client's, or matching a search. */
export const appListQuerySchema = z.object({
  clientId: clientIdSchema.optional(),
  serverId: serverIdSchema.optional(),
  /** The state of the last run. */
  state: runStateSchema.optional(),
  q: z.string().max(200, 'At most 200 characters').optional(),
  ...pageQuerySchema.shape,
});

/** `GET /api/apps/:id/runs`: newest first, paged on request. */
export const runListQuerySchema = z.object({ ...pageQuerySchema.shape });

/** Where a line of a run's log came from: the command's stdout or stderr, or the tool itself. */
export const RUN_LOG_STREAMS = ['out', 'err', 'system'] as const;
export const runLogStreamSchema = z.enum(RUN_LOG_STREAMS);
export type RunLogStream = z.infer<typeof runLogStreamSchema>;

/** A piece of a run's log, numbered from 1 in the order it was written. */
export const runLogLineSchema = z.object({
  seq: z.number(),
  stream: runLogStreamSchema,
  text: z.string(),
  at: z.string(),
});
export type RunLogLine = z.infer<typeof runLogLineSchema>;

/**
 * `GET /api/runs/:id/log` is a server-sent event stream: every piece so far (after `after`, or
 * the `Last-Event-ID` header), then each new one as it is written (`run.log`, its seq the SSE
 * id), then `run.end` with the run once it has ended, and the stream closes.
 */
export const RUN_LOG_EVENT = 'run.log';
export const RUN_END_EVENT = 'run.end';
export const runLogQuerySchema = z.object({
  after: z.coerce
    .number('Must be a number')
    .int('Must be a whole number')
    .min(0, 'Must be 0 or more')
    .optional(),
});
