import { sql, type Transaction } from 'kysely';
import type { DatabaseTarget } from '#server/config.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import {
  checkEmpty,
  checkSourceVersion,
  type CopyPurpose,
  checkTargetUnused,
  migrateTarget,
  openBoth,
  removeCreated,
} from './copy-database-checks.ts';
import { planCopy, type TablePlan } from './copy-database-plan.ts';
import {
  CopyRefused,
  CopyUnverified,
  type CopyReport,
  type TableReport,
} from './copy-database-result.ts';
import { countRows, Digest, readPages, writePage } from './copy-database-rows.ts';
import { inSnapshot } from './snapshot.ts';

export {
  CopyRefused,
  CopyUnverified,
  type CopyReport,
  type TableReport,
} from './copy-database-result.ts';

type Trx = Transaction<Database>;
interface Sides {
  source: Db;
  target: Db;
  batchSize: number;
}

/**
 * Copies every row of one Clients Manager database into another, empty one (typically the
 * embedded SQLite file into PostgreSQL), and verifies the copy: row counts and a SHA-256 over a
 * canonical serialisation of every row, in key order, computed on the source while reading and
 * on the target after writing. The target must be empty, is checked before it is migrated, and is
 * written in one transaction: a failed or unverified copy leaves it empty, and removes a SQLite
 * file it created. Event sequence numbers are
 * kept (browsers resume by them), and the target's sequence continues after the highest.
 */
export async function copyDatabase(
  from: DatabaseTarget,
  to: DatabaseTarget,
  options: { sessions: boolean; batchSize?: number; purpose?: CopyPurpose },
): Promise<CopyReport> {
  const batchSize = options.batchSize ?? 500;
  const { source, target, created } = await openBoth(from, to);
  let completed = false;
  try {
    await checkSourceVersion(source, options.purpose ?? 'copy');
    await checkTargetUnused(target);
    await migrateTarget(target);
    const plan = await planCopy(source, target);
    await checkEmpty(target, plan);
    const tables = plan.filter((t) => !t.optional || options.sessions);
    const sourceDigest = new Digest();
    const targetDigest = new Digest();
    const sides: Sides = { source, target, batchSize };
    const reports = await target.kysely.transaction().execute(async (trx) => {
      const written = await inSnapshot(source, async (src) => {
        const reports: TableReport[] = [];
        for (const table of tables) {
          reports.push(await copyTable(src, trx, sides, table, sourceDigest));
        }
        return reports;
      });
      // Read back what was written, the same way, before committing.
      for (const [i, report] of written.entries()) {
        const digest = new Digest();
        for await (const page of readPages(trx, target.dialect, 'target', tables[i]!, batchSize)) {
          for (const values of page) {
            digest.add(report.table, values);
            targetDigest.add(report.table, values);
          }
        }
        report.target = digest.rows;
        report.targetChecksum = digest.hex();
      }
      if (!written.every(verified)) throw new CopyUnverified(written);
      return written;
    });
    completed = true;
    return {
      tables: plan.map((table) => reports.find((r) => r.table === table.name) ?? skipped(table)),
      sourceChecksum: sourceDigest.hex(),
      targetChecksum: targetDigest.hex(),
      verified: true,
    };
  } finally {
    await source.close();
    await target.close();
    // A refused or failed copy leaves no database where there was none.
    if (created && !completed) removeCreated(created);
  }
}

/** Copies one table page by page, hashing what it reads; the target side is filled in later. */
async function copyTable(
  src: Trx,
  trx: Trx,
  sides: Sides,
  table: TablePlan,
  all: Digest,
): Promise<TableReport> {
  // PostgreSQL's identity (the event numbers) must be told to take the copied numbers and then
  // continue after the highest; SQLite's autoincrement does both by itself.
  const identity = sides.target.dialect === 'postgres' ? table.identity : undefined;
  if (identity) await setIdentity(trx, table, identity, 'by default');
  const digest = new Digest();
  for await (const page of readPages(src, sides.source.dialect, 'source', table, sides.batchSize)) {
    for (const values of page) {
      digest.add(table.name, values);
      all.add(table.name, values);
    }
    try {
      await writePage(trx, table, page);
    } catch (error) {
      if (refusesData(error)) {
        throw new CopyRefused(
          `The target refused a row of ${table.name}: ${(error as Error).message}`,
        );
      }
      throw error;
    }
  }
  if (identity) await setIdentity(trx, table, identity, 'always');
  return {
    table: table.name,
    skipped: false,
    counted: await countRows(src, table),
    source: digest.rows,
    target: 0,
    sourceChecksum: digest.hex(),
    targetChecksum: '',
  };
}

/**
 * Whether the target refused what a row holds (PostgreSQL's data exceptions and integrity
 * violations, SQLite's constraints), as text NUL that SQLite keeps and PostgreSQL does not:
 * a fault of the data, named with its table, where a lost connection is not.
 */
function refusesData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^2[23]/.test(code) || code.startsWith('SQLITE_CONSTRAINT'));
}

/** A PostgreSQL identity column: whether it takes given numbers, and its next one. */
async function setIdentity(
  trx: Trx,
  table: TablePlan,
  column: string,
  generated: 'by default' | 'always',
): Promise<void> {
  const alter = sql`alter table ${sql.table(table.name)} alter column ${sql.ref(column)}`;
  await sql`${alter} set generated ${sql.raw(generated)}`.execute(trx);
  if (generated === 'by default') return;
  const { max } = await trx
    .selectFrom(table.name)
    .select(sql<number | string | null>`max(${sql.ref(column)})`.as('max'))
    .executeTakeFirstOrThrow();
  await sql`${alter} restart with ${sql.lit(Number(max ?? 0) + 1)}`.execute(trx);
}

function verified(r: TableReport): boolean {
  return r.counted === r.source && r.source === r.target && r.sourceChecksum === r.targetChecksum;
}

/** Sessions without --sessions. */
function skipped(table: TablePlan): TableReport {
  return {
    table: table.name,
    skipped: true,
    counted: 0,
    source: 0,
    target: 0,
    sourceChecksum: '',
    targetChecksum: '',
  };
}
