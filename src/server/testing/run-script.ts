import { spawn, type ChildProcess } from 'node:child_process';
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
  return spawn(process.execPath, [script, ...args], {
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
