import { z } from 'zod';
import { nextCursorSchema } from './pages.ts';
import { PERSON_EVENT_KINDS, WEBHOOK_EVENT_KINDS, clientEventSchema } from './events.ts';
import { ADMIN_TAGS_MESSAGE, accessTagsSchema, roleSchema } from './people.ts';

/**
 * What the People screen (administrators only) reads and sends: everyone's role, tag limit,
 * second factor and signed-in devices, the pending invitations, and the audit trail.
 */

/**
 * Ids of people (Better Auth's), invitations (UUIDs) and invitation tokens (base64url): letters,
 * digits, '-' and '_'. Anything else never names one, and must not reach a query (PostgreSQL
 * refuses a NUL in text with an error, not a miss).
 */
export const peopleIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'Must be an id');

/** One signed-in device (a live session) of a person. */
export const personDeviceSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type PersonDevice = z.infer<typeof personDeviceSchema>;

export const personSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  /** The tags this person is limited to; null: every client. */
  tags: z.array(z.string()).nullable(),
  twoFactorEnabled: z.boolean(),
  passkeys: z.number(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  devices: z.array(personDeviceSchema),
});
export type Person = z.infer<typeof personSchema>;

/** An invitation not yet used; expired ones are listed too, so they can be revoked. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  tags: z.array(z.string()).nullable(),
  /** Who invited, by email; null when that account is gone. */
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** Paged on request by `people`; the pending invitations come whole with every page. */
export const peopleListSchema = z.object({
  people: z.array(personSchema),
  invitations: z.array(invitationSchema),
  nextCursor: nextCursorSchema,
});
export type PeopleList = z.infer<typeof peopleListSchema>;

/** An administrator's change to a person; what is left out stays as it is. */
export const personPatchSchema = z
  .object({
    role: roleSchema.optional(),
    /** null lifts the limit: every client. */
    tags: accessTagsSchema.nullable().optional(),
    disabled: z.boolean('disabled: Must be true or false').optional(),
  })
  .strict();
export type PersonPatch = z.input<typeof personPatchSchema>;

/** The longest email address there can be (RFC 5321's 256-octet path less its brackets). */
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_TOO_LONG_MESSAGE = `Must be at most ${EMAIL_MAX_LENGTH} characters`;

export const invitationEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, EMAIL_TOO_LONG_MESSAGE)
  .pipe(z.email('Must be an email address'));

export const invitationInputSchema = z
  .object({
    email: invitationEmailSchema,
    role: roleSchema,
    tags: accessTagsSchema.nullable().default(null),
  })
  .refine((input) => input.role !== 'admin' || input.tags === null, {
    path: ['tags'],
    message: ADMIN_TAGS_MESSAGE,
  });
export type InvitationInput = z.input<typeof invitationInputSchema>;

/** What the sign-up page learns of an invitation from its link: only the invited address. */
export const invitationLookupSchema = z.object({ email: z.string() });
export type InvitationLookup = z.infer<typeof invitationLookupSchema>;

/** How long an invitation link stays valid. */
export const INVITATION_DAYS = 7;

/**
 * What the audit trail lists: every change to a person, the reads of secrets (a client's
 * password, a credential's value), which are recorded as events already, and every change to a
 * webhook endpoint.
 */
export const AUDIT_EVENT_KINDS = [
  ...PERSON_EVENT_KINDS,
  'client.password_read',
  'credential.revealed',
  ...WEBHOOK_EVENT_KINDS,
] as const;
export const auditKindSchema = z.enum(AUDIT_EVENT_KINDS, 'kind: Not a kind the audit trail lists');

export const AUDIT_PAGE_SIZE = 50;

export const auditQuerySchema = z.object({
  kind: auditKindSchema.optional(),
  /** The actor's user id. */
  actor: z.string().min(1).max(200).optional(),
  /** The person an event is about (a person.* event's personId). */
  person: z.string().min(1).max(200).optional(),
  /** Only events older than this sequence number: the next page. */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(AUDIT_PAGE_SIZE),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditPageSchema = z.object({
  events: z.array(clientEventSchema),
  /** The email of each person (or invitation) the events name by personId. */
  people: z.record(z.string(), z.string()),
  /** The `before` of the next (older) page; null when this is the last. */
  next: z.number().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** Why the last administrator may not be demoted or disabled. */
export function lastAdminMessage(email: string): string {
  return `${email} is the last administrator: make someone else an administrator first`;
}

/**
 * Why an unverified account's role and tags stay as they are: whoever signed the address up
 * chose its password, and verifying it later would hand them the access given now.
 */
export function unverifiedAccountMessage(email: string): string {
  return `${email} has not verified their address, so anyone may have made this account: invite them instead, and their invitation replaces it`;
}
