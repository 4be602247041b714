import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { spawnServer } from './spawn-server.ts';

/**
 * The port a test picks for a server it starts is only known to have been free a moment
 * earlier: another test's server can take it before ours listens. Ours then cannot listen, and
 * the other one, answering /readyz, must not be taken for it: a test would send its requests
 * to a server that never saw its session, and read a 401 as the answer of its own.
 */
describe('spawnServer', () => {
  let dataDir: string;
  let other: http.Server;
  let port: number;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-spawn-'));
    port = await freePort();
    other = http.createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => other.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is not ready when another process answers on its port', async () => {
    await expect(spawnServer({ PORT: String(port), DATA_DIR: dataDir })).rejects.toThrow(
      /exited before it was ready[\s\S]*127\.0\.0\.1:\d+ is in use by another program/,
    );
  });
});
