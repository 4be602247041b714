import { sql, type ColumnDataType, type Expression } from 'kysely';
import type { Dialect } from '#server/db/database.ts';

/**
 * The few column types that differ by dialect. Better Auth's tables must use the types its
 * adapter expects (its runtime schema check refuses anything else): SQLite date/integer,
 * PostgreSQL timestamptz/boolean.
 */
export function columnTypes(dialect: Dialect): {
  timestamp: ColumnDataType;
  boolean: ColumnDataType;
  serial: ColumnDataType | Expression<unknown>;
} {
  return dialect === 'postgres'
    ? {
        timestamp: 'timestamptz',
        boolean: 'boolean',
        serial: sql`bigint generated always as identity`,
      }
    : { timestamp: 'date', boolean: 'integer', serial: 'integer' };
}
