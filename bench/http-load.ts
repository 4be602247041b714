import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const AUTOCANNON = path.resolve(import.meta.dirname, '../node_modules/autocannon/autocannon.js');

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers outside 2xx, plus errors and timeouts: any of them makes the figure void. */
  failures: number;
  /**
   * CPU time (user + system) the server process spent per answered request during the run:
   * steadier than requests/s on a shared machine, where both we and the floor slow down together.
   */
  cpuUsPerRequest?: number;
}

/** User + system CPU time of a process so far, in ms (Linux: /proc/<pid>/stat, 100 ticks/s). */
export function processCpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * One autocannon run in a process of its own (its CPU use must not be the server's or the
 * bench's), over `connections` kept-alive connections for `seconds`.
 */
export function httpLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The server's process id: its CPU time per request is measured too. */
  serverPid?: number;
}): Promise<LoadResult> {
  const args = [
    AUTOCANNON,
    '--json',
    '--connections',
    String(options.connections),
    '--duration',
    String(options.seconds),
    '--method',
    options.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    args.push('--headers', `${name}=${value}`);
  }
  if (options.body !== undefined) args.push('--body', options.body);
  args.push(options.url);
  const cpuBefore = options.serverPid === undefined ? 0 : processCpuMs(options.serverPid);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      const cpuMs =
        options.serverPid === undefined ? undefined : processCpuMs(options.serverPid) - cpuBefore;
      resolve({
        requestsPerSecond: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        requests: r.requests.total,
        failures: r.non2xx + r.errors + r.timeouts,
        ...(cpuMs === undefined || r.requests.total === 0
          ? {}
          : { cpuUsPerRequest: (cpuMs * 1000) / r.requests.total }),
      });
    });
  });
}
