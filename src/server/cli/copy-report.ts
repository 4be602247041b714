import {
  NO_HOST,
  databaseTarget,
  databaseUrlProblem,
  readPostgresUrl,
  type DatabaseTarget,
} from '#server/config.ts';
import { CopyRefused, CopyUnverified, type TableReport } from '#server/db/copy-database.ts';
import { UsageError } from './run-command.ts';
import { terminalText } from './terminal-text.ts';

/**
 * Query parameters of a database URL whose values are secret or point at one: node-postgres
 * takes every parameter (`password`, `sslpassword` for the key's passphrase, `sslkey` for the
 * private key's file, and whatever a later version adds).
 */
const SECRET_PARAMETER = /pass|secret|token|key/i;

/**
 * A database URL fit to print, as the first line of every backup (cron mails and logs keep
 * it): the password masked, in the user part and in the query, and no fragment.
 */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `sqlite:${target.file}`;
  const url = readPostgresUrl(target.url);
  // Refused before it gets here (databaseUrlProblem); never echoed if it does.
  if (!url) return 'postgres://(a URL that cannot be read)';
  if (url.password) url.password = '***';
  const query = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    query.append(name, SECRET_PARAMETER.test(name) ? '***' : value);
  }
  url.search = query.toString();
  url.hash = '';
  return url.toString().replace(`@${NO_HOST}/`, '@/');
}

/**
 * The database a command-line option names (a URL, or a SQLite file's path). A postgres:// URL
 * node-postgres cannot read is refused here with one line naming the option, never echoing the
 * URL (it may hold the password).
 */
export function targetFromOption(option: string, value: string, dataDir: string): DatabaseTarget {
  const problem = databaseUrlProblem(value);
  if (problem) throw new UsageError(`Invalid ${option}: ${problem}.`, { showUsage: false });
  return databaseTarget(value, dataDir, 2);
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
  // A refusal names what it found in the source, which may be a backup file from elsewhere.
  const why = error instanceof CopyRefused ? error.message : String(error);
  console.error(`${words.refused}${terminalText(why)}`);
  return 1;
}
