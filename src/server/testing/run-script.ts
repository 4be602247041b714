import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The environment of a Node process a test starts: nothing of the test's own but PATH, so
 * the process sees only the settings it is given, as an operator's command would.
 * NODE_COMPILE_CACHE: Node keeps the compiled modules there, and every later start of the run
 * loads them in about a third less CPU time (the cache is written when a process exits).
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    BETTER_AUTH_TELEMETRY: '0',
    NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'clients-manager-compile-cache'),
    ...env,
  };
}

export interface ScriptResult {
  code: number | null;
  out: string;
  err: string;
}

/**
 * The file Node starts for one of this repository's entry points. With TEST_BUILD_DIR set
 * (`npm test` names dist/server, just built from the same tree), the server and the commands
 * start from their bundles there, as `npm run serve` starts the server: from the TypeScript
 * sources, a start resolves and reads about 1,500 modules, twice the CPU or more
 * (docs/decisions/0009-test-suite-time.md), and the suites start these entry points about 200
 * times.
 */
export function entryFile(script: string): string {
  const dir = process.env.TEST_BUILD_DIR;
  if (!dir) return script;
  const name =
    script === 'src/server/main.ts'
      ? 'main'
      : /^src\/server\/cli\/([a-z-]+)\.ts$/.exec(script)?.[1];
  if (name === undefined) return script;
  const file = path.resolve(ROOT, dir, name === 'main' ? 'main.mjs' : `cli-${name}.mjs`);
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is not built: add the command to COMMANDS in vite.server.config.ts`);
  }
  return file;
}

/**
 * Starts one of this repository's entry points (`src/server/main.ts`, a CLI under
 * `src/server/cli/`, a built bundle) from the repository's folder, with `env` as its only
 * settings and its standard output and error piped.
 */
export function startScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  stdin: 'pipe' | 'ignore' = 'ignore',
): ChildProcess {
  return spawn(process.execPath, [entryFile(script), ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: [stdin, 'pipe', 'pipe'],
  });
}

/**
 * Runs an entry point to its end, as `npm run …` would, with `env` as its only settings
 * (LOG_LEVEL=warn unless given) and `stdin` written to it.
 */
export function runScript(
  script: string,
  args: string[] = [],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = startScript(script, args, { LOG_LEVEL: 'warn', ...options.env }, 'pipe');
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin!.end(options.stdin ?? '');
  });
}
