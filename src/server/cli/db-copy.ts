import path from 'node:path';
import { copyDatabase } from '#server/db/copy-database.ts';
import { describeTarget, reportCopyFailure, reportTable, targetFromOption } from './copy-report.ts';
import { parseCommandLine, runCommand } from './run-command.ts';

const USAGE = `Usage: npm run db:copy -- --from DATABASE_URL --to DATABASE_URL [--sessions]

Copies every client, user (with their sign-in accounts and pending verifications), deploy
token and the whole event log from one Clients Manager database into a new, empty one, e.g.
the embedded SQLite file into PostgreSQL, and verifies it: row counts and a SHA-256 checksum
over every row, on both sides. A target holding data or other tables is refused before
anything is written to it; it is then migrated and written in one transaction; if anything
differs nothing is kept and the command exits with 1.

  --from      sqlite:./data/clients-manager.db, a file path, or postgres://…
  --to        postgres://user:password@host:5432/database (or sqlite:…)
  --sessions  copy the signed-in sessions too (otherwise everyone signs in again)

Stop the server (or every instance) first: writes made during the copy are not copied. The
target instances need the same SECRET_KEY (or secret.key) as the source: stored server
passwords and deploy tokens are encrypted with it.`;

async function main(): Promise<number> {
  const { values } = parseCommandLine({
    from: { type: 'string' },
    to: { type: 'string' },
    sessions: { type: 'boolean', default: false },
    help: { type: 'boolean' },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.from || !values.to) {
    console.error(USAGE);
    return 2;
  }
  // The forms DATABASE_URL takes; a bare path is a SQLite file.
  const from = targetFromOption('--from', values.from, path.resolve('data'));
  const to = targetFromOption('--to', values.to, path.resolve('data'));
  console.log(`Copying ${describeTarget(from)} → ${describeTarget(to)}`);
  try {
    const report = await copyDatabase(from, to, { sessions: values.sessions });
    console.log(reportTable(report.tables));
    const copied = report.tables.filter((t) => !t.skipped);
    const rows = copied.reduce((sum, t) => sum + t.target, 0);
    console.log(
      `all rows: ${rows} in ${copied.length} tables, checksum ${report.targetChecksum.slice(0, 16)} on both sides`,
    );
    console.log(
      `Copy verified. Start Clients Manager with DATABASE_URL set to the target and the same SECRET_KEY (or secret.key).`,
    );
    return 0;
  } catch (error) {
    return reportCopyFailure(error, { unverified: '', refused: 'Not copied: ' });
  }
}

await runCommand(main, { usage: USAGE });
