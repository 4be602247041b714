import type { DatabaseTarget } from '#server/config.ts';
import { CopyRefused, CopyUnverified, type TableReport } from '#server/db/copy-database.ts';

/** A database URL fit to print: no password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `sqlite:${target.file}`;
  const url = new URL(target.url);
  if (url.password) url.password = '***';
  return url.toString();
}

/** Per table: rows on both sides and the checksums, `ok` where they agree. */
export function reportTable(reports: TableReport[]): string {
  const rows = [['table', 'source', 'target', 'checksum (SHA-256)', '']];
  for (const r of reports) {
    if (r.skipped) {
      rows.push([r.table, '-', '-', 'not copied (add --sessions to copy them)', '']);
      continue;
    }
    const same = r.counted === r.source && r.source === r.target;
    const sums = r.sourceChecksum === r.targetChecksum;
    rows.push([
      r.table,
      String(r.counted),
      String(r.target),
      sums
        ? r.sourceChecksum.slice(0, 16)
        : `${r.sourceChecksum.slice(0, 16)} ≠ ${r.targetChecksum.slice(0, 16)}`,
      same && sums ? 'ok' : 'DIFFERENT',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) =>
          i === 1 || i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * Says why a copy (db:copy, backup, restore) kept nothing, and returns the exit code: the
 * table of a copy that did not verify, or the refusal (not empty, other version, no such file)
 * or the error of an unreachable database, each after the command's own words.
 */
export function reportCopyFailure(
  error: unknown,
  words: { unverified: string; refused: string },
): number {
  if (error instanceof CopyUnverified) {
    console.error(reportTable(error.tables));
    console.error(`${words.unverified}${error.message}`);
    return 1;
  }
  console.error(`${words.refused}${error instanceof CopyRefused ? error.message : String(error)}`);
  return 1;
}
