import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort, serverPort } from './testing/free-port.ts';
import { runScript, type ScriptResult } from './testing/run-script.ts';

/**
 * The real entry point on a machine that does not let it start: it says so in one line that
 * names the setting to look at, exits 1, and prints no stack trace and no password.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-start-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the server until it exits; these starts all fail before it listens. */
function start(env: Record<string, string>): Promise<ScriptResult> {
  return runScript('src/server/main.ts', [], {
    env: { PUBLIC_URL: 'http://127.0.0.1:1', ...env },
  });
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
      /^Cannot start: DATA_DIR .*a-file\/data cannot be used as this server's folder \(ENOTDIR\)\.$/,
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
});
