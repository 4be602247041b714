/** Normalises what the SQLite and PostgreSQL drivers return, so the API shape is identical. */
export function toIso(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
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
