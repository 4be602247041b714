import type { Db } from './database.ts';
import { CopyRefused } from './copy-database-result.ts';
import { COPIED_TABLES, NOT_COPIED, type CopiedTable } from './copy-database-tables.ts';

export type Kind = 'text' | 'integer' | 'boolean' | 'timestamp';
export type Side = 'source' | 'target';

/**
 * A column's kind from the type its migration declared (migrations/column-types.ts). SQLite has
 * no boolean type and holds PostgreSQL's booleans as integers 0/1, so a boolean is hashed as 0/1:
 * each side reads by its own schema alone and hashes alike whatever the other side is.
 */
const KINDS = new Map<string, Kind>([
  ['text', 'text'],
  ['integer', 'integer'], // SQLite
  ['bigint', 'integer'],
  ['int4', 'integer'], // PostgreSQL
  ['int8', 'integer'],
  ['bool', 'boolean'],
  ['date', 'timestamp'], // SQLite
  ['timestamptz', 'timestamp'],
]);

/** A column both sides have, with the kind each side holds it as. */
export interface PlannedColumn {
  name: string;
  source: Kind;
  target: Kind;
}

export type TablePlan = CopiedTable & {
  /** In the source's order, which the checksums follow. */
  columns: PlannedColumn[];
  /** The target's auto-incrementing column, if any: it takes the source's numbers. */
  identity?: string;
};

interface SideColumn {
  name: string;
  kind: Kind;
  autoIncrementing: boolean;
}

/**
 * The copied tables with the columns both databases have, read from their schemas. Refuses a
 * table or a column type this version does not know, and any table or column that only one side
 * has: both are migrated by the same code, so they must agree.
 */
export async function planCopy(source: Db, target: Db): Promise<TablePlan[]> {
  const from = await tablesOf(source, 'source');
  const to = await tablesOf(target, 'target');
  const differences: string[] = [];
  const plan = COPIED_TABLES.map((table) =>
    planTable(table, from.get(table.name), to.get(table.name), differences),
  );
  if (differences.length > 0) {
    throw new CopyRefused(
      `The source and the target do not have the same tables and columns (${differences.join(', ')}): copy only between databases this version of Clients Manager migrated.`,
    );
  }
  return plan;
}

/** A table's columns as both sides have them; what only one side has goes to `differences`. */
function planTable(
  table: CopiedTable,
  source: SideColumn[] | undefined,
  target: SideColumn[] | undefined,
  differences: string[],
): TablePlan {
  if (!source || !target) {
    const only = source ? 'source' : 'target';
    differences.push(source || target ? `${table.name} only in the ${only}` : `no ${table.name}`);
    return { ...table, columns: [] };
  }
  const columns: PlannedColumn[] = [];
  for (const column of source) {
    const other = target.find((c) => c.name === column.name);
    if (!other) differences.push(`${table.name}.${column.name} only in the source`);
    else if (!sameKind(column.kind, other.kind)) {
      differences.push(
        `${table.name}.${column.name} ${column.kind} in the source, ${other.kind} in the target`,
      );
    } else columns.push({ name: column.name, source: column.kind, target: other.kind });
  }
  for (const column of target) {
    if (!source.some((c) => c.name === column.name)) {
      differences.push(`${table.name}.${column.name} only in the target`);
    }
  }
  for (const key of table.key) {
    if (!columns.some((c) => c.name === key)) differences.push(`no ${table.name}.${key}`);
  }
  return { ...table, columns, identity: target.find((c) => c.autoIncrementing)?.name };
}

/** SQLite's integer column is PostgreSQL's boolean one. */
function sameKind(a: Kind, b: Kind): boolean {
  const numeric = (kind: Kind) => kind === 'integer' || kind === 'boolean';
  return a === b || (numeric(a) && numeric(b));
}

/** The columns of each copied table a database has; refuses what this version cannot copy. */
async function tablesOf(db: Db, side: Side): Promise<Map<string, SideColumn[]>> {
  const problems: string[] = [];
  const tables = new Map<string, SideColumn[]>();
  for (const table of await db.kysely.introspection.getTables()) {
    // PostgreSQL: only the default schema is ours (extensions may keep tables elsewhere).
    if (NOT_COPIED.has(table.name) || (table.schema && table.schema !== 'public')) continue;
    if (!COPIED_TABLES.some((t) => t.name === table.name)) {
      problems.push(`table ${table.name}`);
      continue;
    }
    const columns: SideColumn[] = [];
    for (const column of table.columns) {
      const kind = KINDS.get(column.dataType.toLowerCase());
      if (kind) {
        columns.push({ name: column.name, kind, autoIncrementing: column.isAutoIncrementing });
      } else problems.push(`column ${table.name}.${column.name} of type ${column.dataType}`);
    }
    tables.set(table.name, columns);
  }
  if (problems.length > 0) {
    throw new CopyRefused(
      `The ${side} database has ${problems.join(', ')}, which this version does not know how to copy. Use the Clients Manager version that wrote it.`,
    );
  }
  return tables;
}
