import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { toBool, toIso } from './codec.ts';
import type { Dialect } from './database.ts';
import type { Kind, Side, TablePlan } from './copy-database-plan.ts';
import type { Database } from './schema.ts';

/**
 * A value in one canonical form, whatever the driver returned: timestamps as ISO text,
 * booleans as 0/1 (how SQLite holds them), 64-bit integers as numbers.
 */
export type Value = string | number | null;
type Row = Record<string, unknown>;
type Reader = Kysely<Database> | Transaction<Database>;

function canonical(kind: Kind, value: unknown): Value {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'text':
      return String(value);
    case 'integer':
      return Number(value);
    case 'boolean':
      return toBool(value as boolean) ? 1 : 0;
    case 'timestamp':
      return toIso(value as string | Date);
  }
}

/** A canonical value as a column of this kind takes it (only PostgreSQL has booleans). */
function stored(kind: Kind, value: Value): unknown {
  return kind === 'boolean' && value !== null ? value === 1 : value;
}

/** Orders (and compares) a key column bytewise on both dialects, so both sides hash rows alike. */
function keyExpression(table: TablePlan, name: string, side: Side, dialect: Dialect) {
  const ref = sql.ref(name);
  const key = table.columns.find((c) => c.name === name)!;
  return key[side] === 'text' && dialect === 'postgres' ? sql`${ref} collate "C"` : ref;
}

/** Reads one side of a table in key order, a page at a time, as canonical values. */
export async function* readPages(
  db: Reader,
  dialect: Dialect,
  side: Side,
  table: TablePlan,
  batchSize: number,
): AsyncGenerator<Value[][]> {
  const keys = table.key.map((name) => keyExpression(table, name, side, dialect));
  // A key of several columns pages by row value, `(a, b) > (x, y)`, which both databases know.
  const keyTuple = sql`(${sql.join(keys)})`;
  let after: unknown[] | undefined = undefined;
  for (;;) {
    let query = db
      .selectFrom(table.name)
      .select(table.columns.map((c) => sql.ref(c.name).as(c.name)))
      .limit(batchSize);
    for (const key of keys) query = query.orderBy(key);
    if (after !== undefined) query = query.where(sql<boolean>`${keyTuple} > (${sql.join(after)})`);
    const rows = (await query.execute()) as Row[];
    if (rows.length === 0) return;
    yield rows.map((row) => table.columns.map((c) => canonical(c[side], row[c.name])));
    const last = rows.at(-1)!;
    after = table.key.map((name) => last[name]);
    if (rows.length < batchSize) return;
  }
}

/** Writes a page of canonical values into the target's table. */
export async function writePage(trx: Transaction<Database>, table: TablePlan, page: Value[][]) {
  const rows = page.map((values) =>
    Object.fromEntries(table.columns.map((c, i) => [c.name, stored(c.target, values[i] ?? null)])),
  );
  await trx
    .insertInto(table.name)
    .values(rows as never)
    .execute();
}

export async function countRows(db: Reader, table: TablePlan): Promise<number> {
  const { n } = await db
    .selectFrom(table.name)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** SHA-256 over a canonical serialisation of rows, and how many went in. */
export class Digest {
  readonly #hash = createHash('sha256');
  rows = 0;
  add(table: string, values: Value[]): void {
    this.#hash.update(`${table}\t${JSON.stringify(values)}\n`);
    this.rows += 1;
  }
  hex(): string {
    return this.#hash.digest('hex');
  }
}
