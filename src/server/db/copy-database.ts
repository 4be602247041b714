import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseTarget } from '#server/config.ts';
import { openDatabase, type Db, type Dialect } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { fromBool, toBool, toIso } from './codec.ts';
import type { Database } from './schema.ts';

type Kind = 'text' | 'integer' | 'boolean' | 'timestamp';

interface TableSpec {
  name: keyof Database;
  /** Rows are read and hashed in the order of this key. */
  key: string;
  columns: Record<string, Kind>;
  /** Copied only when asked (sessions: without them, people sign in again). */
  optional?: 'sessions';
}

/**
 * What is copied, in an order that satisfies the foreign keys. Each column names its kind so
 * values are written as the target's dialect holds them and hashed in one canonical form
 * (timestamps as ISO text, booleans as true/false) whatever the source's driver returned.
 * Not copied: `rateLimit` (short-lived counters) and Kysely's migration bookkeeping (the target
 * is migrated by the same code). `columnsOf` refuses a database whose tables hold columns this
 * list does not know, so a new migration cannot be silently left out of a copy.
 */
export const COPIED_TABLES: readonly TableSpec[] = [
  {
    name: 'user',
    key: 'id',
    columns: {
      id: 'text',
      name: 'text',
      email: 'text',
      emailVerified: 'boolean',
      image: 'text',
      createdAt: 'timestamp',
      updatedAt: 'timestamp',
      disabled: 'boolean',
    },
  },
  {
    name: 'account',
    key: 'id',
    columns: {
      id: 'text',
      accountId: 'text',
      providerId: 'text',
      userId: 'text',
      accessToken: 'text',
      refreshToken: 'text',
      idToken: 'text',
      accessTokenExpiresAt: 'timestamp',
      refreshTokenExpiresAt: 'timestamp',
      scope: 'text',
      password: 'text',
      createdAt: 'timestamp',
      updatedAt: 'timestamp',
    },
  },
  {
    name: 'verification',
    key: 'id',
    columns: {
      id: 'text',
      identifier: 'text',
      value: 'text',
      expiresAt: 'timestamp',
      createdAt: 'timestamp',
      updatedAt: 'timestamp',
    },
  },
  {
    name: 'session',
    key: 'id',
    optional: 'sessions',
    columns: {
      id: 'text',
      expiresAt: 'timestamp',
      token: 'text',
      createdAt: 'timestamp',
      updatedAt: 'timestamp',
      ipAddress: 'text',
      userAgent: 'text',
      userId: 'text',
    },
  },
  {
    name: 'deployToken',
    key: 'userId',
    columns: { userId: 'text', token: 'text', updatedAt: 'timestamp' },
  },
  {
    name: 'client',
    key: 'id',
    columns: {
      id: 'text',
      name: 'text',
      code: 'text',
      description: 'text',
      tags: 'text',
      startDate: 'text',
      serverHost: 'text',
      serverPort: 'integer',
      serverUsername: 'text',
      serverPassword: 'text',
      serverPrivate: 'boolean',
      serverUiDir: 'text',
      domains: 'text',
      createdAt: 'timestamp',
      createdBy: 'text',
      updatedAt: 'timestamp',
      updatedBy: 'text',
      version: 'integer',
    },
  },
  {
    // Deleted clients kept for undo (migration 0004): the client's columns and who deleted it.
    name: 'deletedClient',
    key: 'id',
    columns: {
      id: 'text',
      name: 'text',
      code: 'text',
      description: 'text',
      tags: 'text',
      startDate: 'text',
      serverHost: 'text',
      serverPort: 'integer',
      serverUsername: 'text',
      serverPassword: 'text',
      serverPrivate: 'boolean',
      serverUiDir: 'text',
      domains: 'text',
      createdAt: 'timestamp',
      createdBy: 'text',
      updatedAt: 'timestamp',
      updatedBy: 'text',
      version: 'integer',
      deletedAt: 'timestamp',
      deletedBy: 'text',
    },
  },
  {
    name: 'event',
    key: 'seq',
    columns: {
      seq: 'integer',
      kind: 'text',
      clientId: 'text',
      actorId: 'text',
      actorName: 'text',
      at: 'timestamp',
      fields: 'text',
    },
  },
];

const NOT_COPIED = new Set(['rateLimit', 'kysely_migration', 'kysely_migration_lock']);

type Value = string | number | boolean | null;
type Row = Record<string, unknown>;

function canonical(kind: Kind, value: unknown): Value {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'text':
      return String(value);
    case 'integer':
      return Number(value);
    case 'boolean':
      return toBool(value as number | boolean);
    case 'timestamp':
      return toIso(value as string | Date);
  }
}

/** A canonical value as the target's column takes it. */
function stored(kind: Kind, value: Value, dialect: Dialect): unknown {
  if (value === null) return null;
  if (kind === 'boolean') return fromBool(value as boolean, dialect);
  return value;
}

export class CopyRefused extends Error {
  override name = 'CopyRefused';
}

export interface TableReport {
  table: string;
  /** Not copied: sessions without --sessions. */
  skipped: boolean;
  /** Rows the source holds (count(*)), rows read from it and rows read back from the target. */
  counted: number;
  source: number;
  target: number;
  sourceChecksum: string;
  targetChecksum: string;
}

export interface CopyReport {
  tables: TableReport[];
  sourceChecksum: string;
  targetChecksum: string;
  /** Every copied table has the same row count and checksum on both sides. */
  verified: boolean;
}

/** Orders (and compares) keys bytewise on both dialects, so both sides hash rows alike. */
function keyExpression(spec: TableSpec, dialect: Dialect) {
  const ref = sql.ref(spec.key);
  return spec.columns[spec.key] === 'text' && dialect === 'postgres'
    ? sql`${ref} collate "C"`
    : ref;
}

/** Reads a table in key order, a page at a time. */
async function* readRows(
  db: Kysely<Database> | Transaction<Database>,
  dialect: Dialect,
  spec: TableSpec,
  batchSize: number,
): AsyncGenerator<Value[][]> {
  const names = Object.keys(spec.columns);
  const kinds = Object.values(spec.columns);
  const key = keyExpression(spec, dialect);
  let after: unknown = undefined;
  for (;;) {
    let query = db
      .selectFrom(spec.name)
      .select(names.map((n) => sql.ref(n).as(n)))
      .orderBy(key)
      .limit(batchSize);
    if (after !== undefined) query = query.where(key, '>', after);
    const rows = (await query.execute()) as Row[];
    if (rows.length === 0) return;
    yield rows.map((row) => names.map((n, i) => canonical(kinds[i]!, row[n])));
    after = rows.at(-1)![spec.key];
    if (rows.length < batchSize) return;
  }
}

class Digest {
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

/** The columns each copied table has, checked against COPIED_TABLES. */
async function checkColumns(db: Db, side: 'source' | 'target'): Promise<void> {
  const tables = await db.kysely.introspection.getTables();
  const problems: string[] = [];
  for (const table of tables) {
    // PostgreSQL: only the default schema is ours (extensions may keep tables elsewhere).
    if (NOT_COPIED.has(table.name) || (table.schema && table.schema !== 'public')) continue;
    const spec = COPIED_TABLES.find((t) => t.name === table.name);
    if (!spec) {
      problems.push(`table ${table.name}`);
      continue;
    }
    for (const column of table.columns) {
      if (!(column.name in spec.columns)) problems.push(`column ${table.name}.${column.name}`);
    }
  }
  if (problems.length > 0) {
    throw new CopyRefused(
      `The ${side} database has ${problems.join(', ')}, which this version does not know how to copy. Use the Clients Manager version that wrote it.`,
    );
  }
}

async function appliedMigrations(db: Db, side: 'source' | 'target'): Promise<string[]> {
  try {
    const result = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(db.kysely);
    return result.rows.map((r) => r.name);
  } catch {
    throw new CopyRefused(`The ${side} database holds no Clients Manager data (no migrations).`);
  }
}

/**
 * Copies every row of one Clients Manager database into another, empty one (typically the
 * embedded SQLite file into PostgreSQL), and verifies the copy: row counts and a SHA-256 over a
 * canonical serialisation of every row, in key order, computed on the source while reading and
 * on the target after writing. The target is migrated first, must be empty, and is written in
 * one transaction: a failed or unverified copy leaves it empty. Event sequence numbers are
 * kept (browsers resume by them), and the target's sequence continues after the highest.
 */
export async function copyDatabase(
  from: DatabaseTarget,
  to: DatabaseTarget,
  options: { sessions: boolean; batchSize?: number },
): Promise<CopyReport> {
  const batchSize = options.batchSize ?? 500;
  if (from.kind === 'sqlite' && to.kind === 'sqlite' && from.file === to.file) {
    throw new CopyRefused('The source and the target are the same file.');
  }
  if (from.kind === 'postgres' && to.kind === 'postgres' && from.url === to.url) {
    throw new CopyRefused('The source and the target are the same database.');
  }
  let source: Db;
  try {
    source = openDatabase(from, { readOnly: true });
  } catch (error) {
    throw new CopyRefused(`Cannot open the source: ${(error as Error).message}`);
  }
  const target = openDatabase(to);
  try {
    const sourceMigrations = await appliedMigrations(source, 'source');
    await migrateToLatest(target);
    const targetMigrations = await appliedMigrations(target, 'target');
    if (sourceMigrations.join() !== targetMigrations.join()) {
      const missing = targetMigrations.filter((m) => !sourceMigrations.includes(m));
      throw new CopyRefused(
        missing.length > 0
          ? `The source database is from an older version (missing ${missing.join(', ')}): start this version of Clients Manager on it once, then copy.`
          : 'The source database is from a newer version of Clients Manager: copy with that version.',
      );
    }
    await checkColumns(source, 'source');
    await checkColumns(target, 'target');

    const tables = COPIED_TABLES.filter((t) => !t.optional || options.sessions);
    const occupied: string[] = [];
    for (const spec of COPIED_TABLES) {
      const { n } = await target.kysely
        .selectFrom(spec.name)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(n) > 0) occupied.push(`${spec.name}: ${Number(n)}`);
    }
    if (occupied.length > 0) {
      throw new CopyRefused(
        `The target database is not empty (${occupied.join(', ')} rows): copy only into a new, empty database.`,
      );
    }

    const reports: TableReport[] = [];
    const allSource = new Digest();
    const allTarget = new Digest();
    await target.kysely.transaction().execute(async (trx) => {
      const read = async (work: (db: Transaction<Database>) => Promise<void>) =>
        source.dialect === 'postgres'
          ? source.kysely
              .transaction()
              .setIsolationLevel('repeatable read')
              .setAccessMode('read only')
              .execute(work)
          : source.kysely.transaction().execute(work);

      // One read transaction on the source: a consistent snapshot even if it is in use.
      await read(async (src) => {
        if (target.dialect === 'postgres') {
          // Keep the event numbers: let this transaction write the identity column.
          await sql`alter table "event" alter column "seq" set generated by default`.execute(trx);
        }
        for (const spec of tables) {
          const digest = new Digest();
          const names = Object.keys(spec.columns);
          const kinds = Object.values(spec.columns);
          for await (const page of readRows(src, source.dialect, spec, batchSize)) {
            for (const values of page) {
              digest.add(spec.name, values);
              allSource.add(spec.name, values);
            }
            await trx
              .insertInto(spec.name)
              .values(
                page.map((values) =>
                  Object.fromEntries(
                    names.map((n, i) => [n, stored(kinds[i]!, values[i]!, target.dialect)]),
                  ),
                ) as never,
              )
              .execute();
          }
          const { n } = await src
            .selectFrom(spec.name)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          reports.push({
            table: spec.name,
            skipped: false,
            counted: Number(n),
            source: digest.rows,
            target: 0,
            sourceChecksum: digest.hex(),
            targetChecksum: '',
          });
        }
      });

      if (target.dialect === 'postgres') {
        await sql`alter table "event" alter column "seq" set generated always`.execute(trx);
        const { max } = await trx
          .selectFrom('event')
          .select((eb) => eb.fn.max('seq').as('max'))
          .executeTakeFirstOrThrow();
        const next = Number(max ?? 0) + 1;
        await sql`alter table "event" alter column "seq" restart with ${sql.lit(next)}`.execute(
          trx,
        );
      }

      // Read back what was written, the same way, before committing.
      for (const report of reports) {
        const spec = tables.find((t) => t.name === report.table)!;
        const digest = new Digest();
        for await (const page of readRows(trx, target.dialect, spec, batchSize)) {
          for (const values of page) {
            digest.add(spec.name, values);
            allTarget.add(spec.name, values);
          }
        }
        report.target = digest.rows;
        report.targetChecksum = digest.hex();
      }
      const verified = reports.every(
        (r) =>
          r.counted === r.source && r.source === r.target && r.sourceChecksum === r.targetChecksum,
      );
      if (!verified) throw new CopyUnverified(reports);
    });
    for (const spec of COPIED_TABLES) {
      if (!tables.includes(spec)) {
        reports.push({
          table: spec.name,
          skipped: true,
          counted: 0,
          source: 0,
          target: 0,
          sourceChecksum: '',
          targetChecksum: '',
        });
      }
    }
    const order = (r: TableReport) => COPIED_TABLES.findIndex((t) => t.name === r.table);
    return {
      tables: reports.sort((x, y) => order(x) - order(y)),
      sourceChecksum: allSource.hex(),
      targetChecksum: allTarget.hex(),
      verified: true,
    };
  } finally {
    await source.close();
    await target.close();
  }
}

/** The copy was written but did not read back the same: rolled back, the target stays empty. */
export class CopyUnverified extends Error {
  override name = 'CopyUnverified';
  readonly tables: TableReport[];
  constructor(tables: TableReport[]) {
    super('The copy did not verify (row counts or checksums differ); nothing was kept.');
    this.tables = tables;
  }
}
