import { defineConfig } from '@playwright/test';

/**
 * Browser tests drive Debian's Chromium headless shell (scripts/ensure-test-tools.sh installs
 * it); nothing is downloaded. Each worker runs its own real server on a loopback port (see
 * e2e/fixtures.ts), serving the built web app from dist/client.
 */
export default defineConfig({
  testDir: 'e2e',
  // Bounds for a hang, not for speed (that is `npm run bench`'s). The machines are shared 2-core
  // ones, four browsers at once: a page under load can take seconds to compile and render, a
  // test of several screens and scans tens of seconds, and a slower machine twice that (a
  // dashboard reload once took more than 10 s on CI's).
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Tests wait on servers, streams and the browser far more than they compute: on 2 cores, four
  // workers keep the machine busy where two left it idle half the time. Each test is spread on
  // its own, since none shares state with another (a file whose worker fixture is costly to
  // build says so and keeps its tests on one worker).
  fullyParallel: true,
  workers: 4,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    // Recording a trace takes a screenshot at every action of every test, only to keep those of
    // failures, and was most of the browser's CPU time (docs/decisions/0009-test-suite-time.md).
    // A failure is explained by the fixtures' failure report; to get its trace, run again with
    // `--trace retain-on-failure`.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
