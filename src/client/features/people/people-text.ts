import { limitForRole, type Role } from '#shared/people.ts';
import type { Person, PersonDevice } from '#shared/people-admin.ts';
import { formatDateTime } from '#client/lib/history-text.ts';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  editor: 'Editor',
  viewer: 'Viewer',
};

export const ROLE_OPTIONS = (Object.keys(ROLE_LABELS) as Role[]).map((value) => ({
  value,
  label: ROLE_LABELS[value],
}));

/** The limit a form's role and tags ask for: none with no tags, or for an administrator. */
export function tagLimit(role: Role, tags: readonly string[]): string[] | null {
  return limitForRole(role, tags.length === 0 ? null : [...tags]);
}

/** "All clients", or the tags a person is limited to. */
export function tagsText(tags: readonly string[] | null): string {
  return tags === null ? 'All clients' : tags.join(', ');
}

export function secondFactorText(person: Pick<Person, 'twoFactorEnabled' | 'passkeys'>): string {
  const parts: string[] = [];
  if (person.twoFactorEnabled) parts.push('Authenticator app');
  if (person.passkeys > 0)
    parts.push(person.passkeys === 1 ? '1 passkey' : `${person.passkeys} passkeys`);
  return parts.length > 0 ? parts.join(', ') : 'None';
}

export function lastSignInText(person: Pick<Person, 'lastSignInAt'>): string {
  return person.lastSignInAt ? formatDateTime(person.lastSignInAt) : 'Never';
}

export function devicesText(devices: readonly PersonDevice[]): string {
  if (devices.length === 0) return 'None';
  return devices.length === 1 ? '1 device' : `${devices.length} devices`;
}

/** A device as a person recognises it: browser and address, with when it was last seen. */
export function deviceText(device: PersonDevice): string {
  const agent = device.userAgent ?? 'Unknown browser';
  const where = device.ipAddress ? ` from ${device.ipAddress}` : '';
  return `${agent}${where}, last seen ${formatDateTime(device.lastSeenAt)}`;
}

/** Who a person is on screen: their name and email, or the email alone. */
export function personLabel(person: Pick<Person, 'name' | 'email'>): string {
  return person.name.trim() ? `${person.name} (${person.email})` : person.email;
}
