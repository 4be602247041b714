import { spawn } from 'node:child_process';
import path from 'node:path';
import { spawnServer, type ServerProcess } from '../src/server/testing/spawn-server.ts';
import { freePort } from '../src/server/testing/free-port.ts';
import { projectScripts, serveEnvOf } from './serve-env.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/**
 * The Node flags and glibc tunables `npm run serve` starts the server with, read from its
 * script (why each is there: docs/operations.md).
 */
const SERVE_ENV = serveEnvOf(projectScripts().serve ?? '');

/**
 * The built server (`entry`, a bundle made as `npm run build` makes dist/server/main.mjs) as a
 * child process on `env`'s database, as `npm run serve` runs it. Request logs are off
 * (LOG_LEVEL=warn): at thousands of requests a second, an info line per request would measure
 * the log pipe.
 */
export async function startServer(
  entry: string,
  env: Record<string, string> & { DATA_DIR: string },
): Promise<ServerProcess> {
  return spawnServer(
    { PORT: String(await freePort()), LOG_LEVEL: 'warn', ...SERVE_ENV, ...env },
    { readyTimeoutMs: 60_000, entry },
  );
}

/**
 * Milliseconds from spawning the built server to its "ready" log line (the database opened and
 * migrated, the port listening), read from the line's own timestamp.
 */
export async function timeToReady(entry: string, env: Record<string, string>): Promise<number> {
  const port = String(await freePort());
  const startedAt = Date.now();
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      BETTER_AUTH_TELEMETRY: '0',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...SERVE_ENV,
      ...env,
      PORT: port,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (const line of out.split('\n')) {
          if (!line.includes('is ready')) continue;
          resolve((JSON.parse(line) as { time: number }).time - startedAt);
        }
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => reject(new Error(`server exited ${code} before ready:\n${out}`)));
    });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
