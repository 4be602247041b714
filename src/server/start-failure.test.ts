import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startFailureMessage } from './start-failure.ts';
import { closedPort, serverPort } from './testing/free-port.ts';
import { runScript, startScript, type ScriptResult } from './testing/run-script.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';

/**
 * The real entry point on a machine that does not let it start: it says so in one line that
 * names the setting to look at, exits 1, and prints no stack trace and no password.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-start-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the server until it exits; these starts all fail before it serves. One that has not
 * exited after 30 s is killed (code null): a start once hung spinning the CPU, and must not
 * outlive its test.
 */
function start(env: Record<string, string>): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = startScript('src/server/main.ts', [], {
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://127.0.0.1:1',
      ...env,
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function expectOneLineRefusal(result: ScriptResult, line: RegExp): void {
  expect(result.code, result.err).toBe(1);
  const said = result.err.trim().split('\n');
  expect(said, result.err).toEqual([expect.stringMatching(line)]);
}

describe('a start the machine does not allow', { timeout: 60_000 }, () => {
  it('names DATA_DIR when it cannot be a folder', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const result = await start({
      DATA_DIR: path.join(file, 'data'),
      PORT: String(await serverPort()),
    });
    expectOneLineRefusal(
      result,
      /^Cannot start: DATA_DIR .*a-file\/data cannot be used as this server's folder: a file stands where a folder belongs in .*a-file\/data \(ENOTDIR\)\.$/,
    );
  });

  it('names DATA_DIR when a folder on its way is a broken link', async () => {
    const link = path.join(dir, 'broken-link');
    fs.symlinkSync(path.join(dir, 'gone'), link);
    const result = await start({
      DATA_DIR: path.join(link, 'data'),
      PORT: String(await serverPort()),
    });
    expectOneLineRefusal(
      result,
      /^Cannot start: DATA_DIR .*broken-link\/data cannot be used as this server's folder: .*broken-link\/data does not exist and cannot be made \(ENOENT\)\.$/,
    );
  });

  it('names DATA_DIR under /proc, where a folder cannot be made, instead of hanging', async () => {
    // The database elsewhere: the folder is first made for the key, not for the database.
    const result = await start({
      DATA_DIR: '/proc/nope',
      DATABASE_URL: `sqlite:${path.join(dir, 'proc-db', 'cm.db')}`,
      PORT: String(await serverPort()),
    });
    expectOneLineRefusal(
      result,
      /^Cannot start: DATA_DIR \/proc\/nope cannot be used as this server's folder: \/proc\/nope does not exist and cannot be made \(ENOENT\)\.$/,
    );
  });

  it('names DATA_DIR when its secret.key is a folder', async () => {
    const data = path.join(dir, 'key-folder');
    fs.mkdirSync(path.join(data, 'secret.key'), { recursive: true });
    const result = await start({ DATA_DIR: data, PORT: String(await serverPort()) });
    expectOneLineRefusal(
      result,
      /^\/.*key-folder\/secret\.key is a folder: it should be the file holding the key .* \(DATA_DIR\/secret\.key\); put the key there, or set SECRET_KEY$/,
    );
  });

  it('names DATA_DIR when its database file is not a database', async () => {
    const data = path.join(dir, 'not-a-db');
    fs.mkdirSync(data);
    fs.writeFileSync(path.join(data, 'clients-manager.db'), 'some notes\n');
    const result = await start({ DATA_DIR: data, PORT: String(await serverPort()) });
    expectOneLineRefusal(
      result,
      /^Cannot start: the SQLite database in DATA_DIR cannot be used: .*not-a-db\/clients-manager\.db is not a SQLite database \(SQLITE_NOTADB\)\.$/,
    );
  });

  // An upgrade rolled back, or an older instance restarted beside one that has migrated.
  it('names a database a newer version migrated, for the server and a command alike', async () => {
    const data = path.join(dir, 'newer');
    const file = path.join(data, 'clients-manager.db');
    const db = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(db);
    await sql`insert into kysely_migration (name, timestamp) values ('0099-future', ${new Date().toISOString()})`.execute(
      db.kysely,
    );
    await db.close();
    const said =
      'the database was migrated by a newer version of Clients Manager (0099-future): run that version, or restore a backup this version made before the upgrade.';
    const result = await start({ DATA_DIR: data, PORT: String(await serverPort()) });
    expectOneLineRefusal(result, new RegExp(`^Cannot start: ${escapeRegExp(said)}$`));
    const command = await runScript('src/server/cli/user.ts', ['list'], {
      env: { DATA_DIR: data },
    });
    expect(command.code, command.err).toBe(1);
    expect(command.err).toBe(`Cannot run: ${said}\n`);
  });

  it('names DATABASE_URL when its SQLite file is a folder', async () => {
    const folder = path.join(dir, 'db-folder');
    fs.mkdirSync(folder);
    const result = await start({
      DATA_DIR: path.join(dir, 'db-folder-data'),
      DATABASE_URL: `sqlite:${folder}`,
      PORT: String(await serverPort()),
    });
    expectOneLineRefusal(
      result,
      /^Cannot start: the SQLite database in DATABASE_URL cannot be used: .*db-folder cannot be opened as a SQLite file \(SQLITE_CANTOPEN\)\.$/,
    );
  });

  it('names DATABASE_URL when PostgreSQL cannot be reached, and not its password', async () => {
    const closed = await closedPort();
    const result = await start({
      DATA_DIR: path.join(dir, 'pg'),
      PORT: String(await serverPort()),
      DATABASE_URL: `postgres://cm:Secret-Pw-4411@127.0.0.1:${closed}/cm`,
    });
    expectOneLineRefusal(
      result,
      /^Cannot start: the PostgreSQL server in DATABASE_URL cannot be reached \(ECONNREFUSED\)\.$/,
    );
    expect(result.out + result.err).not.toContain('Secret-Pw-4411');
  });

  // A port that takes the connection and says nothing: a firewall that drops, a wrong service.
  it('names DATABASE_URL when PostgreSQL does not answer in time, and not its password', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const result = await start({
        DATA_DIR: path.join(dir, 'pg-silent'),
        PORT: String(await serverPort()),
        DATABASE_URL: `postgres://cm:Secret-Pw-4412@127.0.0.1:${port}/cm`,
      });
      expectOneLineRefusal(
        result,
        /^Cannot start: the PostgreSQL server in DATABASE_URL did not answer within 5 s \(timeout\)\.$/,
      );
      expect(result.out + result.err).not.toContain('Secret-Pw-4412');
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('names the port when another program has it', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const result = await start({ DATA_DIR: path.join(dir, 'port'), PORT: String(port) });
      expectOneLineRefusal(
        result,
        new RegExp(
          `^Cannot start: 127\\.0\\.0\\.1:${port} is in use by another program \\(set PORT or HOST\\)\\.$`,
        ),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('names HOST when it is a name that cannot be looked up', async () => {
    const result = await start({
      DATA_DIR: path.join(dir, 'host-name'),
      PORT: String(await serverPort()),
      HOST: 'nohost.invalid',
      ALLOW_OPEN_SIGNUP: 'true',
    });
    // EAI_AGAIN on a machine without a name server.
    expectOneLineRefusal(
      result,
      /^Cannot start: HOST nohost\.invalid is a name this machine cannot look up \((ENOTFOUND|EAI_AGAIN)\)\.$/,
    );
  });

  it('names HOST when it is not an address of this machine', async () => {
    // 192.0.2.0/24 is reserved for documentation: no machine has it.
    const result = await start({
      DATA_DIR: path.join(dir, 'host-address'),
      PORT: String(await serverPort()),
      HOST: '192.0.2.1',
      ALLOW_OPEN_SIGNUP: 'true',
    });
    expectOneLineRefusal(
      result,
      /^Cannot start: HOST 192\.0\.2\.1 is not an address of this machine: set HOST to one of its addresses, or 0\.0\.0\.0 for all of them \(EADDRNOTAVAIL\)\.$/,
    );
  });
});

it('names PORT when it is open only to privileged programs, not DATA_DIR', () => {
  // Not started for real: under root (as tests may run) any port can be listened on.
  const error = Object.assign(new Error('listen EACCES'), { code: 'EACCES', syscall: 'listen' });
  expect(startFailureMessage(error, loadConfig({ PORT: '80' }))).toBe(
    'Cannot start: port 80 is open only to privileged programs: set PORT to 1024 or above (EACCES).',
  );
});
