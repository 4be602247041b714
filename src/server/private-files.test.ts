import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverPort } from './testing/free-port.ts';
import { spawnServer } from './testing/spawn-server.ts';
import { runScript } from './testing/run-script.ts';

/**
 * The data folder holds the database, the key that opens its secrets, backups and exports:
 * readable by the service's user only, from the moment each file is created (the process's
 * umask), not made private after it was written.
 */

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-private-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

const runCli = (script: string, args: string[], env: Record<string, string>) =>
  runScript(script, args, { env });

describe('files in the data folder', () => {
  it('are private from the start: folder 0700, database, WAL, key and outbox 0600', async () => {
    const dataDir = path.join(base, 'fresh', 'data');
    const server = await spawnServer({ PORT: String(await serverPort()), DATA_DIR: dataDir });
    try {
      const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email: 'a@example.test', password: 'a long password', name: 'A' }),
      });
      expect(signUp.status).toBe(200);
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of [
        'clients-manager.db',
        'clients-manager.db-wal',
        'clients-manager.db-shm',
        'secret.key',
      ]) {
        expect(modeOf(path.join(dataDir, file)), file).toBe(0o600);
      }
      const outbox = path.join(dataDir, 'outbox');
      expect(modeOf(outbox)).toBe(0o700);
      for (const file of fs.readdirSync(outbox))
        expect(modeOf(path.join(outbox, file))).toBe(0o600);
      expect(server.output()).not.toMatch(/made private/);
    } finally {
      await server.stop();
    }
  });

  it('are made private at start when an older install left them readable', async () => {
    const dataDir = path.join(base, 'older', 'data');
    const first = await spawnServer({ PORT: String(await serverPort()), DATA_DIR: dataDir });
    await first.stop();
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'clients-manager.db'), 0o644);
    const again = await spawnServer({ PORT: String(await serverPort()), DATA_DIR: dataDir });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(dataDir, 'clients-manager.db'))).toBe(0o600);
    } finally {
      await again.stop();
    }
  });

  it('are private when the command line writes them: a backup and an export', async () => {
    const dataDir = path.join(base, 'cli', 'data');
    const env = { DATA_DIR: dataDir };
    const out = path.join(base, 'cli', 'export.json');
    const exported = await runCli('src/server/cli/clients.ts', ['export', '--out', out], env);
    expect(exported.code, exported.err).toBe(0);
    expect(modeOf(out)).toBe(0o600);
    expect(modeOf(dataDir)).toBe(0o700);

    const backups = path.join(base, 'cli', 'new-backups');
    const backup = await runCli(
      'src/server/cli/backup.ts',
      ['--out', path.join(backups, 'b.db')],
      env,
    );
    expect(backup.code, backup.err).toBe(0);
    expect(modeOf(backups)).toBe(0o700);
    expect(modeOf(path.join(backups, 'b.db'))).toBe(0o600);
  });
});
