import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '#server/testing/free-port.ts';
import { runScript } from '#server/testing/run-script.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';

/**
 * The commands on a PostgreSQL server they cannot use (none listening, a wrong password): one
 * line that says so and names where the URL was given, exit code 1, no stack trace, and never
 * the password. A backup or a copy does not mistake it for a database without data.
 */

const PASSWORD = 'Wrong-Pw-5521';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-db-failure-'));
let unreachable: string;
let wrongPassword: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  unreachable = `postgres://cm:${PASSWORD}@127.0.0.1:${await closedPort()}/cm`;
  const database = await createTestPostgresDatabase();
  drop = database.drop;
  const url = new URL(database.url);
  url.password = PASSWORD;
  wrongPassword = url.toString();
});
afterAll(async () => {
  await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const cases = [
  {
    name: 'unreachable',
    url: () => unreachable,
    setting:
      /^Cannot run: the PostgreSQL server in DATABASE_URL cannot be reached \(ECONNREFUSED\)\.$/,
    option:
      /Cannot open the source: the PostgreSQL server in its URL cannot be reached \(ECONNREFUSED\)\.$/,
  },
  {
    name: 'refusing the password',
    url: () => wrongPassword,
    setting: /^Cannot run: PostgreSQL refused the user or password in DATABASE_URL \(28P01\)\.$/,
    option:
      /Cannot open the source: PostgreSQL refused the user or password in its URL \(28P01\)\.$/,
  },
];

/** The lines a command wrote to standard error. */
function errorLines(err: string): string[] {
  return err.trim().split('\n');
}

describe.each(cases)('PostgreSQL $name', ({ name, url, setting, option }) => {
  it.each([
    ['user', ['list'], {}],
    ['clients', ['export'], {}],
    ['rotate-secret-key', [], { SECRET_KEY_PREVIOUS: 'a'.repeat(64), SECRET_KEY: 'b'.repeat(64) }],
  ])('npm run %s says so in one line', async (command, args, env) => {
    const result = await runScript(`src/server/cli/${command}.ts`, args, {
      env: { DATABASE_URL: url(), DATA_DIR: path.join(dir, 'data'), ...env },
    });
    expect(result.code, result.err).toBe(1);
    expect(errorLines(result.err), result.err).toEqual([expect.stringMatching(setting)]);
    expect(result.out + result.err).not.toContain(PASSWORD);
  });

  it('npm run backup says so, not that the database holds no data', async () => {
    const out = path.join(dir, `${name}.backup.db`);
    const result = await runScript('src/server/cli/backup.ts', ['--out', out], {
      env: { DATABASE_URL: url(), DATA_DIR: path.join(dir, 'data') },
    });
    expect(result.code, result.err).toBe(1);
    expect(errorLines(result.err), result.err).toEqual([
      expect.stringMatching(new RegExp(`^No backup: ${option.source}`)),
    ]);
    expect(result.out + result.err).not.toContain(PASSWORD);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('npm run db:copy says so, not that the database holds no data', async () => {
    const to = path.join(dir, `${name}-copy.db`);
    const result = await runScript('src/server/cli/db-copy.ts', [
      '--from',
      url(),
      '--to',
      `sqlite:${to}`,
    ]);
    expect(result.code, result.err).toBe(1);
    expect(errorLines(result.err), result.err).toEqual([
      expect.stringMatching(new RegExp(`^Not copied: ${option.source}`)),
    ]);
    expect(result.out + result.err).not.toContain(PASSWORD);
    expect(fs.existsSync(to)).toBe(false);
  });
});

it('npm run backup of a reachable database without tables still says it holds no data', async () => {
  const empty = await createTestPostgresDatabase();
  try {
    const result = await runScript(
      'src/server/cli/backup.ts',
      ['--out', path.join(dir, 'empty.backup.db')],
      { env: { DATABASE_URL: empty.url, DATA_DIR: path.join(dir, 'data') } },
    );
    expect(result.code, result.err).toBe(1);
    expect(errorLines(result.err), result.err).toEqual([
      'No backup: The source database holds no Clients Manager data (no migrations).',
    ]);
  } finally {
    await empty.drop();
  }
});
