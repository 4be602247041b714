import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { runScript, startScript } from './testing/run-script.ts';
import { testDatabaseEnv, testDialect } from './testing/test-database.ts';
import { serverPort } from './testing/free-port.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from './testing/test-server.ts';

/**
 * Starts the real entry point and waits until it exits or answers /readyz; one that answered is
 * stopped again. `code` is the exit code, or 'started'.
 */
async function startServer(env: Record<string, string>) {
  const port = await serverPort();
  const url = `http://127.0.0.1:${port}`;
  const child = startScript('src/server/main.ts', [], {
    PORT: String(port),
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    ...env,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  let gone = false;
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      gone = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const ready = (async () => {
    while (!gone) {
      const ok = await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return 'started' as const;
      await wait(50);
    }
    return undefined;
  })();
  const first = await Promise.race([exited, ready]);
  if (first === 'started') {
    child.kill('SIGTERM');
    await exited;
    return { code: first, out, err };
  }
  return { code: await exited, out, err };
}

/** The refusal: one line naming both places a key comes from, without a stack trace. */
function expectOneLineRefusal(err: string, pattern: RegExp) {
  const lines = err.trim().split('\n');
  expect(lines, err).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).toContain('SECRET_KEY');
  expect(lines[0]).toContain('secret.key');
}

describe(`the key of a database that holds sealed secrets (${testDialect()})`, () => {
  let server: TestServer;
  let session: Session;
  let client: Client;
  let dir: string;
  let restoredDb: Awaited<ReturnType<typeof testDatabaseEnv>>;
  /** The restored installation's data folder: the SQLite file, and on PostgreSQL nothing. */
  let restoredDir: string;
  /** The restored installation's settings, without a key. */
  let restoredEnv: Record<string, string>;

  beforeAll(async () => {
    // Without SECRET_KEY: the installation makes its DATA_DIR/secret.key.
    server = await startTestServer();
    expect(fs.existsSync(path.join(server.dataDir, 'secret.key'))).toBe(true);
    session = await signUpVerified(server);
    client = (
      await session.json<Client>('POST', '/api/clients', {
        name: 'Sealed',
        server: { host: 'sealed.example', password: 'sealed-password-1' },
      })
    ).body;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-key-check-'));
    const file = path.join(dir, 'backup.db');
    const backup = await runScript('src/server/cli/backup.ts', ['--out', file], {
      env: { DATA_DIR: server.dataDir, ...server.databaseEnv },
    });
    expect(backup.code, backup.err).toBe(0);
    restoredDb = await testDatabaseEnv();
    restoredDir = path.join(dir, 'restored');
    const target =
      testDialect() === 'postgres'
        ? ['--database-url', restoredDb.env.DATABASE_URL!]
        : ['--data-dir', restoredDir];
    const restore = await runScript('src/server/cli/restore.ts', [file, ...target]);
    expect(restore.code, restore.err).toBe(0);
    fs.mkdirSync(restoredDir, { recursive: true, mode: 0o700 });
    restoredEnv = { DATA_DIR: restoredDir, ...restoredDb.env };
  });
  afterAll(async () => {
    await server?.close();
    await restoredDb?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the server refuses to start on a restored database without its key, and makes none', async () => {
    const started = await startServer(restoredEnv);
    expect(started.code, started.out + started.err).toBe(1);
    expectOneLineRefusal(started.err, /SECRET_KEY is not set/);
    expect(fs.existsSync(path.join(restoredDir, 'secret.key'))).toBe(false);
  });

  it('clients import from a shell without SECRET_KEY refuses, makes no key and imports nothing', async () => {
    const shellDir = fs.mkdtempSync(path.join(dir, 'shell-'));
    const file = path.join(shellDir, 'in.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        { id: 'imp1', name: 'Imported', server: { host: 'h.example', password: 'imported-pw' } },
      ]),
    );
    // On PostgreSQL the shell's DATA_DIR is its own ./data; on SQLite the database is in it.
    const dataDir = testDialect() === 'postgres' ? path.join(shellDir, 'data') : restoredDir;
    const imported = await runScript('src/server/cli/clients.ts', ['import', file], {
      env: { ...restoredEnv, DATA_DIR: dataDir },
    });
    expect(imported.code, imported.out + imported.err).toBe(1);
    expectOneLineRefusal(imported.err, /SECRET_KEY is not set/);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
  });

  it('a key that does not open the stored secrets is refused, by the server and the commands', async () => {
    const wrong = { ...restoredEnv, SECRET_KEY: 'not-the-key-of-this-database-0123456789' };
    const started = await startServer(wrong);
    expect(started.code, started.out + started.err).toBe(1);
    expectOneLineRefusal(started.err, /SECRET_KEY does not open the secrets stored/);
    const exported = await runScript('src/server/cli/clients.ts', ['export'], { env: wrong });
    expect(exported.code, exported.out + exported.err).toBe(1);
    expectOneLineRefusal(exported.err, /SECRET_KEY does not open the secrets stored/);
    expect(exported.out).toBe('');
  });

  it('with its secret.key copied, the restored installation starts and opens them', async () => {
    fs.copyFileSync(path.join(server.dataDir, 'secret.key'), path.join(restoredDir, 'secret.key'));
    const restored = await startTestServer(restoredEnv);
    try {
      const there = new Session(restored);
      for (const [name, value] of session.cookies) there.cookies.set(name, value);
      const password = await there.json<{ password: string }>(
        'GET',
        `/api/clients/${client.id}/password`,
      );
      expect(password.status).toBe(200);
      expect(password.body.password).toBe('sealed-password-1');
      // The refused import wrote nothing.
      expect((await there.json('GET', '/api/clients/imp1')).status).toBe(404);
    } finally {
      await restored.close();
    }
  });
});
