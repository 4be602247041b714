// Normalises what the SQLite and PostgreSQL drivers return, so the API shape is identical.

/** What `toISOString` writes: UTC, to the millisecond. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Normalises a timestamp to `toISOString`'s form. SQLite holds the ones we write in that form
 * already: kept as they are, since parsing and formatting two dates was a twelfth of the work
 * of answering GET /api/clients/:id.
 */
export function toIso(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  return ISO_UTC.test(value) ? value : new Date(value).toISOString();
}

export function toBool(value: number | boolean): boolean {
  return value === true || value === 1;
}

/** A boolean as the dialect's column holds it: SQLite integer 0/1, PostgreSQL boolean. */
export function fromBool(value: boolean, dialect: 'sqlite' | 'postgres'): number | boolean {
  return dialect === 'postgres' ? value : value ? 1 : 0;
}

export function toStringList(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}
