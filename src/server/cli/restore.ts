import path from 'node:path';
import { configFromEnvOrExit } from '#server/config-from-env.ts';
import { databaseTarget } from '#server/config.ts';
import { restoreDatabase } from '#server/db/backup.ts';
import { describeTarget, reportCopyFailure, reportTable, targetFromOption } from './copy-report.ts';
import { parseCommandLine, runCommand } from './run-command.ts';

const USAGE = `Usage: npm run restore -- FILE [--data-dir DIR | --database-url URL]

Restores a backup made by \`npm run backup\` into a new, empty database: a fresh data
folder's SQLite file (--data-dir), an empty PostgreSQL database (--database-url), or, with
neither, the server's own settings (DATA_DIR, DATABASE_URL), which must hold no data yet. The
target is checked before anything is written to it, then migrated, written in one
transaction and verified row by row against the backup (row counts and SHA-256 checksums); if
anything differs nothing is kept and it exits with 1.

Start the server on the restored database with the key the backed-up installation used
(SECRET_KEY, or its secret.key copied into the new DATA_DIR).`;

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine(
    {
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      help: { type: 'boolean' },
    },
    1,
  );
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const file = positionals[0];
  if (!file || (values['data-dir'] && values['database-url'])) {
    console.error(USAGE);
    return 2;
  }
  const to = values['data-dir']
    ? databaseTarget(undefined, path.resolve(values['data-dir']))
    : values['database-url']
      ? targetFromOption('--database-url', values['database-url'], path.resolve('data'))
      : configFromEnvOrExit().database;
  console.log(`Restoring ${path.resolve(file)} → ${describeTarget(to)}`);
  try {
    const report = await restoreDatabase(file, to);
    console.log(reportTable(report.tables));
    const rows = report.tables.reduce((sum, t) => sum + t.target, 0);
    console.log(`all rows: ${rows}, checksum ${report.targetChecksum.slice(0, 16)}`);
    console.log(
      'Restore verified. Start Clients Manager on it with the same SECRET_KEY (or secret.key).',
    );
    return 0;
  } catch (error) {
    return reportCopyFailure(error, { unverified: 'Restore failed: ', refused: 'Not restored: ' });
  }
}

await runCommand(main, { usage: USAGE });
