import { spawn } from 'node:child_process';
import path from 'node:path';

const AUTOCANNON = path.resolve(import.meta.dirname, '../node_modules/autocannon/autocannon.js');

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers outside 2xx, plus errors and timeouts: any of them makes the figure void. */
  failures: number;
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
      resolve({
        requestsPerSecond: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        requests: r.requests.total,
        failures: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}
