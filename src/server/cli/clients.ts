import fs from 'node:fs';
import path from 'node:path';
import type { ImportReport } from '#shared/client-transfer.ts';
import { configFromEnvOrExit } from '#server/config-from-env.ts';
import { openDatabase } from '#server/db/database.ts';
import { outputFolderProblem } from '#server/private-files.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { SecretBox } from '#server/secrets.ts';
import { secretKeyFor } from '#server/secret-key-check.ts';
import {
  ClientRepository,
  ImportedMeanwhileError,
} from '#server/features/clients/client-repository.ts';
import { exportClients } from '#server/features/transfer/client-export.ts';
import { importClients } from '#server/features/transfer/client-import.ts';
import { ImportFileError } from '#server/features/transfer/import-mapping.ts';
import { parseCommandLine, runCommand } from './run-command.ts';
import { commandLineActor } from './command-line-actor.ts';
import { terminalText } from './terminal-text.ts';

const USAGE = `Usage: npm run clients -- <command> [options]

  export [--secrets] [--out FILE]   every client with all its servers as JSON, and the vault
                                    credentials they use, to FILE (a new file, mode 0600) or
                                    standard output; with --secrets the server passwords and
                                    the credentials' secrets are in it (in clear), and each
                                    read is recorded in history
  import FILE [--dry-run] [--skip-invalid]
                                    our own export, or a Firestore export of the original
                                    tool's clients collection (see docs/operations.md). Prints
                                    what it would do (--dry-run) or did: new clients, updated
                                    ones (same id), credentials added, invalid documents and
                                    warnings with index and reason.
                                    One transaction: with any invalid document nothing is
                                    written, unless --skip-invalid

Uses the same settings as the server (environment and .env: DATA_DIR, DATABASE_URL,
SECRET_KEY). Live browsers see the changes as if a colleague made them.`;

/** An export's --out that names an existing file: nothing is read or written. */
class ExportRefused extends Error {
  override name = 'ExportRefused';
}

/**
 * Writes an export as a backup is written: a new file beside --out, created for its owner only
 * (`wx` never opens an existing file or follows a link), renamed over the name at the end. An
 * existing file would keep its mode (0644 with every password in it) and a link would be
 * followed, so --out must name a new file.
 */
function writeExport(out: string, text: string): void {
  const partial = `${out}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    fs.writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
    fs.renameSync(partial, out);
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The import file's text. It must be UTF-8, as the API and the web app take it: decoded
 * leniently, each byte of a Latin-1 file that is not ASCII would be stored as U+FFFD. A byte
 * order mark is dropped, as the API drops it.
 */
function readImportFile(file: string): string {
  const bytes = fs.readFileSync(file);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ImportFileError(
      `Cannot read ${file}: the file is not UTF-8. Save it as UTF-8 and import it again.`,
    );
  }
}

/** How many invalid documents are listed one by one; the rest are counted. */
const INVALID_LISTED = 20;

function printProblems(problems: ImportReport['invalid'], what: string): void {
  for (const problem of problems.slice(0, INVALID_LISTED)) {
    // Ids and reasons come from the file (a reason may quote a credential's name).
    const id = problem.id === undefined ? '' : ` (id ${problem.id})`;
    console.log(terminalText(`  document ${problem.index}${id}: ${problem.reason}`));
  }
  if (problems.length > INVALID_LISTED) {
    console.log(`  … and ${problems.length - INVALID_LISTED} more ${what}.`);
  }
}

function printReport(report: ImportReport): void {
  const { total, created, updated, unchanged, invalid, credentialsCreated, warnings } = report;
  console.log(
    `${total} document(s): ${created} new, ${updated} updated, ${unchanged} unchanged, ${invalid.length} invalid.`,
  );
  printProblems(invalid, 'invalid document(s)');
  if (credentialsCreated > 0) console.log(`${credentialsCreated} new credential(s) in the vault.`);
  if (warnings.length > 0) {
    console.log(`${warnings.length} warning(s):`);
    printProblems(warnings, 'warning(s)');
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseCommandLine(
    {
      secrets: { type: 'boolean' },
      out: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'skip-invalid': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    // import FILE; export writes to --out
    ([command]) => (command === 'import' ? 2 : 1),
  );
  const [command, file] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command !== 'export' && command !== 'import') {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  if (command === 'import' && !file) {
    console.error(`Name the file to import.\n\n${USAGE}`);
    return 2;
  }

  // Before anything is read: an export with passwords records each read in history.
  const out = values.out === undefined ? undefined : path.resolve(values.out);
  if (command === 'export' && out !== undefined) {
    if (fs.existsSync(out)) throw new ExportRefused(`${out} exists already: choose a new file.`);
    // Made now if missing: the export would otherwise fail at its very end, after each
    // password read was recorded.
    const folderProblem = outputFolderProblem(path.dirname(out));
    if (folderProblem) throw new ExportRefused(folderProblem);
  }

  const config = configFromEnvOrExit();
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const box = new SecretBox(await secretKeyFor(db, config));
    const actor = commandLineActor();
    // No live feed in this process: browsers hear of the changes from the event log.
    const repository = new ClientRepository(db, box, () => undefined);

    if (command === 'export') {
      const secrets = values.secrets === true;
      const { file: content } = await exportClients(db, box, repository, { secrets, actor });
      const text = `${JSON.stringify(content, null, 2)}\n`;
      if (out !== undefined) {
        writeExport(out, text);
        console.error(`Exported ${content.clients.length} client(s) to ${out}.`);
      } else {
        process.stdout.write(text);
      }
      if (secrets) {
        console.error(
          'Warning: the export holds the server passwords in clear, and the secrets of the credentials its servers use. Keep it safe and delete it when done.',
        );
      }
      return 0;
    }

    const text = readImportFile(file!);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      // JSON.parse's message quotes the file around the fault.
      console.error(terminalText(`Cannot read ${file} as JSON: ${(error as Error).message}`));
      return 1;
    }
    const dryRun = values['dry-run'] === true;
    const outcome = await importClients(repository, data, {
      dryRun,
      skipInvalid: values['skip-invalid'] === true,
      actor,
      onProgress: (done, total) => process.stderr.write(`\rimported ${done}/${total}`),
    });
    if (outcome.status === 'applied' && outcome.report.created + outcome.report.updated > 0) {
      process.stderr.write('\n');
    }
    printReport(outcome.report);
    switch (outcome.status) {
      case 'dry_run':
        console.log('Dry run: nothing was written.');
        return 0;
      case 'refused':
        console.error(
          'Nothing was imported because of the invalid document(s). Fix them, or run again with --skip-invalid to import only the valid ones.',
        );
        return 1;
      case 'applied':
        console.log(
          `Imported: ${outcome.report.created} created, ${outcome.report.updated} updated.`,
        );
        return 0;
    }
  } finally {
    await db.close();
  }
}

await runCommand(main, {
  usage: USAGE,
  refusals: [ExportRefused, ImportFileError, ImportedMeanwhileError],
});
