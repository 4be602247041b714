import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { listensOn } from './listens-on.ts';
import { startScript } from './run-script.ts';

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has gone. */
  exited: Promise<number | string>;
  /** What the process wrote to stderr (and stdout), for a failure message. */
  output(): string;
  /** Resident memory of the process in kB (Linux: /proc/<pid>/status VmRSS). */
  rssKb(): number;
  /** SIGKILL: no shutdown code runs, as when the machine's OOM killer or a crash ends it. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful stop. */
  stop(): Promise<void>;
}

/**
 * The real entry point as a child process on the given settings: `entry`, else
 * `src/server/main.ts`, which `npm test` starts from the bundle it has just built from the same
 * tree (`entryFile`: what `npm run serve` runs; the crash tests start the server dozens of
 * times). Resolves once `/readyz` answers 200 (the database is migrated and reachable), so a
 * test can kill it at any moment after and start it again.
 */
export async function spawnServer(
  env: Record<string, string> & { PORT: string; DATA_DIR: string },
  options: { readyTimeoutMs?: number; entry?: string } = {},
): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${env.PORT}`;
  const entry = options.entry ?? 'src/server/main.ts';
  const child = startScript(entry, [], {
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    ...env,
  });
  let output = '';
  const keep = (d: Buffer) => {
    // Enough to explain a failure; a chatty log must not grow without bound.
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  for (;;) {
    if (gone) throw new Error(`the server exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready in time:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    // The port was free when the test picked it; another test's server may have taken it
    // since, and answer /readyz in our child's place. Ours then fails to listen and exits.
    if (ready && listensOn(child.pid!, Number(env.PORT))) break;
    await new Promise((r) => setTimeout(r, 25));
  }

  return {
    url,
    pid: child.pid!,
    child,
    exited,
    output: () => output,
    rssKb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
    },
    async kill() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
    },
  };
}
