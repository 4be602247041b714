import http from 'node:http';
import type { Session } from '../src/server/testing/test-server.ts';
import { benchClientBody } from './seed.ts';
import { quantile, sleep } from './stats.ts';

export interface FanoutResult {
  subscribers: number;
  events: number;
  /** Per event: from the write's answer to its receipt by the last subscriber. */
  allP50Ms: number;
  allP99Ms: number;
  allMaxMs: number;
  /** Per delivery (one event at one subscriber), from the write's answer. */
  eachP50Ms: number;
  eachP99Ms: number;
  /** Every subscriber got every event, in order, each once. */
  complete: boolean;
}

/** One live stream that notes when each event id arrived (a timestamp at the chunk's arrival). */
class Subscriber {
  readonly seen: { seq: number; at: number }[] = [];
  #request: http.ClientRequest | undefined;
  #buffer = '';

  open(url: string, cookie: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const agent = new http.Agent({ keepAlive: false });
      this.#request = http.get(
        new URL('/api/events', url),
        { headers: { cookie, accept: 'text/event-stream' }, agent },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`event stream answered ${response.statusCode}`));
            return;
          }
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            const at = performance.now();
            this.#buffer += chunk;
            let end: number;
            while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
              const frame = this.#buffer.slice(0, end);
              this.#buffer = this.#buffer.slice(end + 2);
              if (frame.includes('event: stream.ready')) resolve();
              const id = /^id: (\d+)$/m.exec(frame);
              if (id) this.seen.push({ seq: Number(id[1]), at });
            }
          });
        },
      );
      this.#request.on('error', reject);
    });
  }

  close(): void {
    this.#request?.destroy();
  }
}

/**
 * Opens `subscribers` live streams, then makes `writes` creates one after another (a short
 * pause between them) and times each event from the moment the write was answered to its
 * arrival at every stream.
 */
export async function sseFanout(options: {
  url: string;
  /** Makes the writes. */
  session: Session;
  /** The session of each stream (a person may open STREAMS_PER_PERSON). */
  watchers: { sessionFor(index: number): Session };
  subscribers: number;
  writes: number;
  onOpen?: () => void;
}): Promise<FanoutResult> {
  const subs: Subscriber[] = [];
  try {
    for (let i = 0; i < options.subscribers; i += 50) {
      const batch = Array.from(
        { length: Math.min(50, options.subscribers - i) },
        () => new Subscriber(),
      );
      subs.push(...batch);
      await Promise.all(
        batch.map((s, j) => s.open(options.url, options.watchers.sessionFor(i + j).cookieHeader)),
      );
    }
    options.onOpen?.();
    const acked = new Map<string, number>();
    for (let i = 0; i < options.writes; i += 1) {
      const { status, body } = await options.session.json<{ id: string }>(
        'POST',
        '/api/clients',
        benchClientBody(1_000_000 + i),
      );
      if (status !== 201) throw new Error(`write answered ${status}`);
      acked.set(body.id, performance.now());
      await sleep(20);
    }
    // Every stream must get the last event; wait for the slowest.
    const deadline = performance.now() + 10_000;
    while (subs.some((s) => s.seen.length < options.writes) && performance.now() < deadline) {
      await sleep(20);
    }
    return summarise(subs, [...acked.values()], options.writes);
  } finally {
    for (const s of subs) s.close();
  }
}

function summarise(subs: Subscriber[], ackTimes: number[], writes: number): FanoutResult {
  // Events are numbered consecutively from the first one any stream saw.
  const first = Math.min(...subs.map((s) => s.seen[0]?.seq ?? Infinity));
  let complete = true;
  const each: number[] = [];
  const lastArrival = new Array<number>(writes).fill(0);
  for (const sub of subs) {
    if (sub.seen.length !== writes) complete = false;
    sub.seen.forEach(({ seq, at }, i) => {
      if (seq !== first + i) complete = false;
      const acked = ackTimes[i];
      if (acked === undefined) return;
      // An event may arrive before the bench has read the write's answer: that counts as 0.
      const latency = Math.max(0, at - acked);
      each.push(latency);
      lastArrival[i] = Math.max(lastArrival[i]!, latency);
    });
  }
  return {
    subscribers: subs.length,
    events: writes,
    allP50Ms: quantile(lastArrival, 0.5),
    allP99Ms: quantile(lastArrival, 0.99),
    allMaxMs: Math.max(...lastArrival),
    eachP50Ms: quantile(each, 0.5),
    eachP99Ms: quantile(each, 0.99),
    complete,
  };
}
