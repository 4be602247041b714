import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: its path, headers and the exact body bytes. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * How the receiver answers its nth request (from 1): a status, `hold` (no answer until the
 * test ends or the connection goes), a redirect to another of its paths, or a status after a
 * while (a receiver that takes its time).
 */
export type Answer = number | 'hold' | { redirect: string } | { status: number; afterMs: number };

/**
 * A real HTTP server on 127.0.0.1 that webhooks deliver to in tests. It keeps every request,
 * and a test waits for a count of them (a signal, not a sleep).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  #answer: (n: number, request: Received) => Answer;
  readonly #server: http.Server;
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  readonly #held = new Set<http.ServerResponse>();

  constructor(answer: (n: number, request: Received) => Answer = () => 200) {
    this.#answer = answer;
    this.#server = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (chunk: Buffer) => parts.push(chunk));
      req.on('end', () => {
        const got: Received = {
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(parts),
        };
        this.received.push(got);
        const answer = this.#answer(this.received.length, got);
        for (const waiter of [...this.#waiters]) {
          if (this.received.length >= waiter.count) {
            this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
        if (answer === 'hold') {
          this.#held.add(res);
          res.on('close', () => this.#held.delete(res));
        } else if (typeof answer === 'object' && 'redirect' in answer) {
          res.writeHead(302, { location: answer.redirect }).end();
        } else if (typeof answer === 'object') {
          setTimeout(() => res.writeHead(answer.status).end('ok'), answer.afterMs);
        } else {
          res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
        }
      });
    });
  }

  answerWith(answer: (n: number, request: Received) => Answer): void {
    this.#answer = answer;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `count` requests have come in (at once if they have). */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** The JSON bodies received, in order. */
  bodies<T = unknown>(): T[] {
    return this.received.map((r) => JSON.parse(r.body.toString('utf8')) as T);
  }

  async close(): Promise<void> {
    for (const res of this.#held) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
