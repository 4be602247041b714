import type { Client, ClientValues } from '#shared/clients.ts';

/**
 * Names of the fields an update changes, for the event log. Only names: a password change is
 * recorded as `server.password`, never with its value.
 */
export function changedFields(before: Client, after: ClientValues): string[] {
  const fields: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const key of ['name', 'code', 'description', 'tags', 'domains'] as const) {
    if (!same(before[key], after[key])) fields.push(key);
  }
  if (after.startDate !== undefined && after.startDate !== before.startDate)
    fields.push('startDate');
  for (const key of ['host', 'port', 'username', 'private', 'uiDir'] as const) {
    if (before.server[key] !== after.server[key]) fields.push(`server.${key}`);
  }
  const password = after.server.password;
  if (password !== undefined && (password !== '' || before.server.hasPassword)) {
    fields.push('server.password');
  }
  return fields;
}

/**
 * What an update's event keeps of the tags it changed: the tags before, which decide who is
 * told to reload (realtime/event-scope.ts). Nothing when the tags stayed.
 */
export function tagsBefore(
  before: Pick<Client, 'tags'>,
  fields: readonly string[],
): { tagsBefore?: readonly string[] } {
  return fields.includes('tags') ? { tagsBefore: before.tags } : {};
}
