import type { LoadResult } from './http-load.ts';
import { quantile } from './stats.ts';

/**
 * Updates under load: `connections` workers for `seconds`, each saving its own client over and
 * over with the version it read last (a PUT carries the version, so workers sharing one client
 * would refuse each other with 409s). Runs in the bench's process: the latencies are what a
 * browser would see; CPU per request is not measured here.
 */
export async function updateLoad(options: {
  url: string;
  headers: Record<string, string>;
  clients: { id: string; version: number }[];
  seconds: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + options.seconds * 1000;
  await Promise.all(
    options.clients.map(async (client, worker) => {
      let version = client.version;
      let round = 0;
      while (performance.now() < deadline) {
        const started = performance.now();
        const response = await fetch(`${options.url}/api/clients/${client.id}`, {
          method: 'PUT',
          headers: { ...options.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Bench ${worker} ${round++}`, version }),
        });
        const body = (await response.json()) as { version?: number };
        latencies.push(performance.now() - started);
        if (response.status === 200 && body.version !== undefined) version = body.version;
        else failures += 1;
      }
      client.version = version;
    }),
  );
  return {
    requestsPerSecond: latencies.length / options.seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    requests: latencies.length,
    failures,
  };
}
