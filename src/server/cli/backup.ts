import path from 'node:path';
import { configFromEnvOrExit } from '#server/config-from-env.ts';
import { backupDatabase } from '#server/db/backup.ts';
import { describeTarget, reportCopyFailure, reportTable, targetFromOption } from './copy-report.ts';
import { parseCommandLine, runCommand } from './run-command.ts';

const USAGE = `Usage: npm run backup -- [--out FILE] [--database-url URL]

Writes a consistent backup of the Clients Manager database while the server keeps running
(writes go on; the backup holds everything committed before it started): users with their
sign-in accounts and sessions, deploy tokens, clients, deleted clients kept for undo and the
whole event log, in one SQLite file (mode 0600), verified row by row with SHA-256 checksums.
Works the same on SQLite and PostgreSQL; restore with \`npm run restore\`.

  --out           the backup file to write (default: clients-manager-<date-time>.backup.db)
  --database-url  the database to back up (default: the server's settings, DATABASE_URL or
                  the SQLite file in DATA_DIR)

The backup holds stored passwords and tokens encrypted: keep the key (SECRET_KEY or
DATA_DIR/secret.key) too, but apart from the backup. Without it they cannot be decrypted.`;

async function main(): Promise<number> {
  const { values } = parseCommandLine({
    out: { type: 'string' },
    'database-url': { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = configFromEnvOrExit();
  const from = values['database-url']
    ? targetFromOption('--database-url', values['database-url'], config.dataDir)
    : config.database;
  const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '');
  const out = path.resolve(values.out ?? `clients-manager-${stamp}.backup.db`);
  console.log(`Backing up ${describeTarget(from)} → ${out}`);
  try {
    const report = await backupDatabase(from, out);
    console.log(reportTable(report.tables));
    const rows = report.tables.reduce((sum, t) => sum + t.target, 0);
    console.log(`all rows: ${rows}, checksum ${report.targetChecksum.slice(0, 16)}`);
    console.log(`Backup verified: ${out}. Keep the SECRET_KEY (or secret.key) apart from it.`);
    return 0;
  } catch (error) {
    return reportCopyFailure(error, { unverified: 'Backup failed: ', refused: 'No backup: ' });
  }
}

await runCommand(main, { usage: USAGE });
