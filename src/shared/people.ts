import { z } from 'zod';
import { anyTagsSchema } from './clients.ts';

/**
 * Who may do what. `editor` is what every signed-in person could do in the original tool, so an
 * installation that sets nothing (DEFAULT_ROLE=editor) behaves as it did; `viewer` reads and
 * never sees a secret; `admin` also manages people and settings.
 */
export const ROLES = ['admin', 'editor', 'viewer'] as const;
export const roleSchema = z.enum(ROLES, 'Must be admin, editor or viewer');
export type Role = z.infer<typeof roleSchema>;

/**
 * What a route or a button needs. Every API route names one (route-permissions.ts on the
 * server); the web app asks the same question to decide what to show.
 *
 * - `self`: one's own account (profile, sessions, second factors); anyone signed in.
 * - `read`: clients, servers, credentials' metadata, history, the SSH command.
 * - `write`: add, edit, duplicate, delete, import, manage servers and credentials.
 * - `secret`: reveal or copy a password, a key or a token; export with passwords; the
 *   deployment command (it carries the access token).
 * - `admin`: people, roles, tags, invitations, the audit trail, settings of the installation.
 */
export const PERMISSIONS = ['self', 'read', 'write', 'secret', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  admin: new Set(['self', 'read', 'write', 'secret', 'admin']),
  editor: new Set(['self', 'read', 'write', 'secret']),
  viewer: new Set(['self', 'read']),
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

/**
 * The tags a person is limited to: null for every client; otherwise they see and act on only
 * the clients carrying at least one of these (never an empty list: that would be nobody).
 */
// Any tag a client may carry, also one stored before tags that start with '-' were refused.
export const accessTagsSchema = anyTagsSchema.pipe(
  z.array(z.string()).min(1, 'Name at least one tag, or lift the limit'),
);

/**
 * An administrator has no tag limit: they manage people (their own limit included), webhooks
 * and the audit trail, which cover every client, so a limit could not hold them.
 */
export const ADMIN_TAGS_MESSAGE = 'Administrators see every client: leave the tags empty';

/** The tag limit a person with `role` keeps: theirs, or none for an administrator. */
export function limitForRole<Tags>(role: Role, tags: Tags | null): Tags | null {
  return role === 'admin' ? null : tags;
}

/** What the server knows of the signed-in person to decide what they may see and do. */
export interface Access {
  userId: string;
  role: Role;
  /** null: every client. */
  tags: readonly string[] | null;
}

/** Whether a client with these tags is within a person's reach. */
export function canSeeTags(access: Pick<Access, 'tags'>, clientTags: readonly string[]): boolean {
  if (access.tags === null) return true;
  return clientTags.some((tag) => access.tags!.includes(tag));
}
