import type { Reporter, TestModule } from 'vitest/node';

interface Tally {
  files: number;
  passed: number;
  failed: number;
  skipped: number;
}

const empty = (): Tally => ({ files: 0, passed: 0, failed: 0, skipped: 0 });

function add(tally: Tally, module: TestModule, measured: string[]): void {
  tally.files += 1;
  for (const test of module.children.allTests()) {
    for (const note of test.annotations()) {
      if (note.type === 'measurement') measured.push(`  [${module.project.name}] ${note.message}`);
    }
    const state = test.result().state;
    if (state === 'passed') tally.passed += 1;
    else if (state === 'failed') tally.failed += 1;
    else tally.skipped += 1;
  }
}

function line(label: string, t: Tally): string {
  const extra = [t.failed ? `${t.failed} failed` : '', t.skipped ? `${t.skipped} skipped` : '']
    .filter(Boolean)
    .join(', ');
  return `  ${label.padEnd(40)} ${String(t.passed).padStart(4)} passed in ${t.files} files${extra ? ` (${extra})` : ''}`;
}

/**
 * After the run, says per database how many tests ran: Vitest's own summary adds the projects
 * up. A file of the `sqlite` project that also ran in the `postgres` project touches the
 * database; the others (pure functions, the web app's units) need none. Then the figures
 * tests recorded with `annotate(message, 'measurement')`, such as the cross-instance latency.
 */
export default class DatabaseSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const onPostgres = new Set(
      modules.filter((m) => m.project.name === 'postgres').map((m) => m.relativeModuleId),
    );
    const postgres = empty();
    const sqlite = empty();
    const noDatabase = empty();
    const measured: string[] = [];
    for (const module of modules) {
      if (module.project.name === 'postgres') add(postgres, module, measured);
      else if (onPostgres.size === 0 || onPostgres.has(module.relativeModuleId))
        add(sqlite, module, measured);
      else add(noDatabase, module, measured);
    }
    const lines = ['', 'Tests per database:'];
    if (sqlite.files > 0) {
      // Without the postgres project there is nothing to tell the database suites apart by.
      const label =
        onPostgres.size > 0
          ? 'SQLite (API, event and database suites)'
          : 'SQLite project (every suite)';
      lines.push(line(label, sqlite));
    }
    if (postgres.files > 0) lines.push(line('PostgreSQL (the same, and *.pg.test.ts)', postgres));
    if (noDatabase.files > 0) lines.push(line('no database (unit tests, run once)', noDatabase));
    if (measured.length > 0) lines.push('Measured:', ...measured);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
