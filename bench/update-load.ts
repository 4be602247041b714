import { createRequire } from 'node:module';
import type { LoadResult } from './http-load.ts';
import { quantile } from './stats.ts';

/** The part of autocannon's programmatic API used here (it ships no types). */
interface Cannon {
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ): void;
}
type CannonStart = (
  options: {
    url: string;
    connections: number;
    duration: number;
    headers: Record<string, string>;
    requests: {
      method: 'PUT';
      setupRequest(request: object): object;
      onResponse(status: number, body: string): void;
    }[];
  },
  done: (error: Error | null) => void,
) => Cannon;
const autocannon = createRequire(import.meta.url)('autocannon') as CannonStart;

/**
 * Updates under load: one connection per client for `seconds`, each saving its own client over
 * and over with the version its last answer gave (a PUT carries the version, so connections
 * sharing one client would refuse each other with 409s). Sent by autocannon, as the reads are:
 * the machine's two cores are shared with the server, and `fetch` cost more CPU per request
 * than the server's own work on a save. Latencies are autocannon's, every answer counted. A
 * save still on its way when the time runs out may be made without its answer being read:
 * the clients' versions are then stale, and a later run saves other clients.
 */
export async function updateLoad(options: {
  url: string;
  headers: Record<string, string>;
  clients: { id: string; version: number }[];
  seconds: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  await Promise.all(
    options.clients.map(
      (client, worker) =>
        new Promise<void>((resolve, reject) => {
          let round = 0;
          const cannon = autocannon(
            {
              url: options.url,
              connections: 1,
              duration: options.seconds,
              headers: { ...options.headers, 'content-type': 'application/json' },
              requests: [
                {
                  method: 'PUT',
                  setupRequest: (request) => ({
                    ...request,
                    path: `/api/clients/${client.id}`,
                    body: JSON.stringify({
                      name: `Bench ${worker} ${round++}`,
                      version: client.version,
                    }),
                  }),
                  onResponse: (status, body) => {
                    if (status === 200)
                      client.version = (JSON.parse(body) as { version: number }).version;
                    else failures += 1;
                  },
                },
              ],
            },
            (error) => (error ? reject(error) : resolve()),
          );
          cannon.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
        }),
    ),
  );
  return {
    requestsPerSecond: latencies.length / options.seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    requests: latencies.length,
    failures,
  };
}
