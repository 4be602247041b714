import { z } from 'zod';
import { recordVersionSchema } from './record-version.ts';
import { nextCursorSchema, pageQuerySchema } from './pages.ts';
import { parseTags } from './tags.ts';
import {
  HIDDEN_CHARACTER_MESSAGE,
  HIDDEN_IN_ADDRESS_MESSAGE,
  HIDDEN_IN_LINE_MESSAGE,
  LEADING_DASH_MESSAGE,
  hasHiddenCharacters,
  hasHiddenInLine,
  startsLikeOption,
} from './command-safe-text.ts';
import { MIN_SECRET_LENGTH, SHORT_SECRET_MESSAGE } from './secret-length.ts';

export const DEFAULT_SERVER_PORT = 22;
export const CLONE_SUFFIX = ' (Clone)';
/** "Acme (ACME)", or the name alone, or the id for a client with neither: as people know it. */
export function clientLabel(client: { id: string; name: string; code: string }): string {
  const name = client.name || client.id;
  return client.code ? `${name} (${client.code})` : name;
}

/** The longest name a client may have, in UTF-16 units as zod counts them. */
export const CLIENT_NAME_MAX = 200;

/**
 * A copy's name: the name and the suffix, the name cut short where both would not fit (never
 * inside a character), so the copy can be saved as it is.
 */
export function cloneName(name: string): string {
  let kept = name.slice(0, CLIENT_NAME_MAX - CLONE_SUFFIX.length);
  if (/[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
  return `${kept.trimEnd()}${CLONE_SUFFIX}`;
}

/**
 * Whether both databases keep a string as it was sent: PostgreSQL refuses NUL in text (the
 * write would fail with a 500), and a lone UTF-16 surrogate would come back as U+FFFD.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}
export const STORABLE_MESSAGE = 'Must not contain NUL characters or broken Unicode';

/** Any string field: at most `max` characters, storable. */
export const plainText = (max: number) =>
  z.string().max(max, `Must be at most ${max} characters`).refine(isStorableText, STORABLE_MESSAGE);

/** A trimmed string field: at most `max` characters, storable. */
export const trimmedText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(isStorableText, STORABLE_MESSAGE);

/** A field that can reach a copied command: also no control, bidi or zero-width characters. */
export const commandText = (max: number) =>
  trimmedText(max).refine((value) => !hasHiddenCharacters(value), HIDDEN_CHARACTER_MESSAGE);

/**
 * A field that a command carries as one argument: also not starting with '-', which the program
 * would take for an option.
 */
export const commandWord = (max: number) =>
  commandText(max).refine((value) => !startsLikeOption(value), LEADING_DASH_MESSAGE);

/** A name or title shown on one line: also no control, bidi or zero-width characters. */
export const lineText = (max: number) =>
  trimmedText(max).refine((value) => !hasHiddenInLine(value), HIDDEN_IN_LINE_MESSAGE);

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true, local: true });

/**
 * A calendar date, `YYYY-MM-DD`. A full ISO timestamp (as an export may hold) is accepted and
 * cut to its date; anything else after the date is refused, not cut off.
 */
export const startDateSchema = z
  .string()
  .trim()
  .refine(
    (value) => isoDate.safeParse(value).success || isoDateTime.safeParse(value).success,
    'Must be a date such as 2026-11-21',
  )
  .transform((value) => value.slice(0, 10));

export const domainSchema = trimmedText(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Must be an http:// or https:// URL')
  .refine((value) => !hasHiddenCharacters(value), HIDDEN_IN_ADDRESS_MESSAGE);

/**
 * Tags as given ("a, b" text or a list), without the rule for tags that reach a command: to
 * name a tag that may have been stored before the rule (a bulk removal, a person's access).
 */
export const anyTagsSchema = z
  // The count is checked once parsed, with its message: in a branch of the union, a list too
  // long was only "Invalid input".
  .union([plainText(2000), z.array(trimmedText(100))])
  .transform((value) => parseTags(value))
  .pipe(
    z
      .array(
        z
          .string()
          .max(100, 'Each tag must be at most 100 characters')
          .refine((value) => !hasHiddenCharacters(value), HIDDEN_CHARACTER_MESSAGE),
      )
      .max(50, 'At most 50 tags'),
  );

/** A client's tags: its first selects the deploy server (`{serverTag}`), so none starts with '-'. */
export const tagsSchema = anyTagsSchema.pipe(
  z.array(z.string().refine((value) => !startsLikeOption(value), LEADING_DASH_MESSAGE)),
);

export const serverInputSchema = z.object({
  // A leading '-' would turn the value into an option of ssh; spaces would split it.
  host: commandText(255)
    .regex(/^(?!-)[A-Za-z0-9._:[\]-]*$/, 'Must be a host name or IP address')
    .default(''),
  port: z
    .number('Must be a number')
    .int('Must be a whole number')
    .min(1, 'Must be between 1 and 65535')
    .max(65535, 'Must be between 1 and 65535')
    .default(DEFAULT_SERVER_PORT),
  username: commandText(255)
    .regex(/^(?!-)[^\s@]*$/, 'Must be a user name without spaces or @')
    .default(''),
  /** Omitted on update: keep the stored password. An empty string removes it. */
  password: plainText(1024).optional(),
  private: z.boolean('Must be true or false').default(true),
  uiDir: commandWord(1024).default(''),
});

/** What the Add Client and Edit forms send. Every field is optional, as in the original. */
export const clientInputSchema = z.object({
  name: lineText(CLIENT_NAME_MAX).default(''),
  code: commandWord(100).default(''),
  description: trimmedText(5000).default(''),
  tags: tagsSchema.default([]),
  startDate: startDateSchema.optional(),
  server: serverInputSchema.default({
    host: '',
    port: DEFAULT_SERVER_PORT,
    username: '',
    private: true,
    uiDir: '',
  }),
  domains: z.array(domainSchema).max(50, 'At most 50 domains').default([]),
});
export type ClientInput = z.input<typeof clientInputSchema>;
export type ClientValues = z.output<typeof clientInputSchema>;

/**
 * A password typed in the form goes into the vault, whose secrets are long enough for run logs
 * to hide (MIN_SECRET_LENGTH); '' takes it away. The import keeps what its file holds
 * (clientInputSchema alone): old data may have a shorter one, which run logs do not hide.
 */
function typedPasswordLongEnough(
  values: { server: { password?: string | undefined } },
  context: z.RefinementCtx,
): void {
  const { password } = values.server;
  if (password !== undefined && password !== '' && password.length < MIN_SECRET_LENGTH) {
    context.addIssue({
      code: 'custom',
      path: ['server', 'password'],
      message: SHORT_SECRET_MESSAGE,
    });
  }
}

/** What the Add Client form and `POST /api/clients` send. */
export const clientFormSchema = clientInputSchema.superRefine(typedPasswordLongEnough);

/** An update carries the version it was read at, so a save over a newer change is refused. */
export const clientUpdateSchema = clientInputSchema
  .extend({ version: recordVersionSchema })
  .superRefine(typedPasswordLongEnough);
export type ClientUpdate = z.input<typeof clientUpdateSchema>;

export const clientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be a client id');

/** A client as the API presents it: the password never leaves except through its own route. */
export const clientSchema = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  startDate: z.string(),
  server: z.object({
    host: z.string(),
    port: z.number(),
    username: z.string(),
    private: z.boolean(),
    uiDir: z.string(),
    hasPassword: z.boolean(),
  }),
  domains: z.array(z.string()),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  version: z.number(),
});
export type Client = z.infer<typeof clientSchema>;

export const clientListSchema = z.object({
  clients: z.array(clientSchema),
  nextCursor: nextCursorSchema,
});
export type ClientList = z.infer<typeof clientListSchema>;

/**
 * What the list shows of a client and what its search box looks at: a row is its name, code and
 * description, the search also reads its tags and host, the table view and the sort add the
 * start date and who changed it last, and when. The rest comes with the client itself when it
 * is opened. The list in this form is well under two thirds of the bytes of the full list, which
 * the browser would otherwise have to parse before it can show the first row.
 */
export const clientSummarySchema = clientSchema
  .pick({
    id: true,
    name: true,
    code: true,
    description: true,
    tags: true,
    startDate: true,
    updatedAt: true,
    updatedBy: true,
  })
  .extend({ server: clientSchema.shape.server.pick({ host: true }) });
export type ClientSummary = z.infer<typeof clientSummarySchema>;

export const clientSummaryListSchema = z.object({
  clients: z.array(clientSummarySchema),
  nextCursor: nextCursorSchema,
});
export type ClientSummaryList = z.infer<typeof clientSummaryListSchema>;

/**
 * `GET /api/clients`: every client in full (the default), or `?view=summary`; those a search
 * finds (`q`, as the search box reads it); for scripts, those with a tag or a code, or whose
 * primary server is at a host (each ignoring case); paged on request.
 */
export const clientListQuerySchema = z.object({
  view: z.enum(['full', 'summary'], 'Must be full or summary').default('full'),
  q: z.string().optional(),
  tag: z.string().max(100, 'At most 100 characters').optional(),
  code: z.string().max(100, 'At most 100 characters').optional(),
  host: z.string().max(255, 'At most 255 characters').optional(),
  ...pageQuerySchema.shape,
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

/** Whether a client is one that `tag`, `code` and `host` of a list query name (each ignoring case). */
export function matchesLookup(
  client: { tags: readonly string[]; code: string; server: { host: string } },
  query: Pick<ClientListQuery, 'tag' | 'code' | 'host'>,
): boolean {
  const same = (a: string, b: string | undefined) =>
    b === undefined || a.toLowerCase() === b.toLowerCase();
  return (
    (query.tag === undefined || client.tags.some((tag) => same(tag, query.tag))) &&
    same(client.code, query.code) &&
    same(client.server.host, query.host)
  );
}

/** A client as the list shows it: exactly the summary's fields, in the summary's order. */
export function summarizeClient(client: ClientSummary): ClientSummary {
  return {
    id: client.id,
    name: client.name,
    code: client.code,
    description: client.description,
    tags: client.tags,
    startDate: client.startDate,
    updatedAt: client.updatedAt,
    updatedBy: client.updatedBy,
    server: { host: client.server.host },
  };
}

export const clientPasswordSchema = z.object({ password: z.string() });

/** A ready command for the selected client; `missing` says why it cannot be built. */
export const clientCommandSchema = z.object({
  id: z.enum(['deploy', 'ssh']),
  label: z.string(),
  command: z.string().nullable(),
  /** The command as shown on screen: secrets in it are masked. */
  display: z.string().nullable(),
  missing: z.string().nullable(),
});
export type ClientCommand = z.infer<typeof clientCommandSchema>;
export const clientCommandsSchema = z.object({ commands: z.array(clientCommandSchema) });
