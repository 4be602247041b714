import { defineConfig } from 'vitest/config';

/** Tests that touch no database: they run once, in the `sqlite` project. */
const DATABASE_FREE = [
  'src/shared/**/*.test.ts',
  'src/client/**/*.test.{ts,tsx}',
  'src/server/config.test.ts',
  'src/server/auth/allowlist.test.ts',
  'src/server/http/database-unavailable.test.ts',
  'src/server/features/clients/deploy-command.test.ts',
  'src/server/features/clients/shell-quote.test.ts',
  'src/server/features/clients/command-bash.test.ts',
  'src/server/http/logger.test.ts',
  'src/server/cli/run-command.test.ts',
  'src/server/cli/copy-report.test.ts',
  'src/server/cli/db-copy.test.ts',
  'src/server/cli/terminal-text.test.ts',
  'src/server/http/request-logger.test.ts',
  'src/server/db/codec.test.ts',
  'src/server/ssh/**/*.test.ts',
  'src/server/features/runs/masker.test.ts',
  'src/server/features/transfer/import-mapping.test.ts',
  'src/server/realtime/webhook-address.test.ts',
  'src/server/testing/spawn-server.test.ts',
  'src/server/testing/quick-password-hashing.test.ts',
  'src/server/secret-key-file.test.ts',
  'src/server/start-failure.test.ts',
];

/** Tests of what only SQLite has (the database file's bytes, durability): SQLite project only. */
const SQLITE_ONLY = [
  'src/server/db/sqlite-durability.test.ts',
  'src/server/secrets-at-rest.test.ts',
  'src/server/private-files.test.ts',
  'src/server/db/migrate-sqlite.test.ts',
];

// Kept apart from vite.config.ts, whose root is the web app's folder.
export default defineConfig({
  test: {
    environment: 'node',
    // Bounds for a hang, not for speed: with four files at once on two cores, a test that
    // starts processes, signs people up or waits on PostgreSQL takes several times its quiet
    // time, and a slower machine more (docs/decisions/0009-test-suite-time.md).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs file after file in one process and imports the server's modules once, not
    // once a file. No suite relies on a fresh module: each starts its own server and database
    // and puts back any global it changes (fake timers, fetch). The measurements behind this and
    // the worker count are in docs/decisions/0009-test-suite-time.md.
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI machines. Most
    // suites wait part of the time on a server, a child process or PostgreSQL, which more files
    // at once fill.
    maxWorkers: 4,
    reporters: ['default', './src/server/testing/database-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          // Every suite, the API and event suites on SQLite files, and the bench's own tests.
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
          // *.pg.test.ts: what only PostgreSQL has (several instances, outages, copying to it).
          exclude: ['**/*.pg.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          // The same API, event and database suites again on a real PostgreSQL server, which the
          // global setup starts (or TEST_DATABASE_URL names); each test file gets its own database.
          name: 'postgres',
          include: ['src/server/**/*.test.ts'],
          exclude: [...DATABASE_FREE, ...SQLITE_ONLY, '**/node_modules/**'],
          env: { CM_TEST_DATABASE: 'postgres' },
          globalSetup: ['./src/server/testing/postgres-global-setup.ts'],
          setupFiles: ['./src/server/testing/postgres-setup.ts'],
        },
      },
    ],
  },
});
