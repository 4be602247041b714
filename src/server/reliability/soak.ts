import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { Client } from '#shared/clients.ts';
import { MailCatcher } from '../testing/mail-catcher.ts';
import { freePort } from '../testing/free-port.ts';
import { signUpVerified, type Session } from '../testing/test-server.ts';
import { spawnServer, type ServerProcess } from '../testing/spawn-server.ts';
import { TestPostgres, createDatabase } from '../testing/embedded-postgres.ts';
import { randomClientBody } from './random-client.ts';
import { SseSubscriber } from './sse-subscriber.ts';

export interface SoakOptions {
  seconds: number;
  writers: number;
  subscribers: number;
  postgres: boolean;
  /** Progress lines (one every 10 s); the summary is returned. */
  log?: (line: string) => void;
}

export interface SoakResult {
  database: 'sqlite' | 'postgres';
  seconds: number;
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  /** Requests that failed without an answer (a reset connection, a refused one). */
  unanswered: number;
  /** Answers other than the expected 201 / 200 below 500 (409, 400…): none expected. */
  unexpected: number;
  latencyMs: { p50: number; p99: number; max: number };
  events: number;
  subscribers: number;
  /** Per subscriber: the fewest and most events received. */
  receivedMin: number;
  receivedMax: number;
  dropped: number;
  reordered: number;
  reconnects: number;
  lagging: number;
  rssWarmKb: number;
  rssEndKb: number;
  rssMaxKb: number;
  /** RSS every 10 s. */
  rssCurveKb: number[];
  rssGrowth: number;
  passed: boolean;
  failures: string[];
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one soak against a server it starts and stops itself. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const mail = await new MailCatcher().start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-soak-'));
  let postgres: TestPostgres | undefined;
  let server: ServerProcess | undefined;
  const subscribers: SseSubscriber[] = [];
  try {
    const env: Record<string, string> & { PORT: string; DATA_DIR: string } = {
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      SMTP_URL: mail.url,
    };
    if (options.postgres) {
      postgres = await TestPostgres.start();
      env.DATABASE_URL = (await createDatabase(postgres.url())).url;
    }
    server = await spawnServer(env);
    const session: Session = await signUpVerified({ url: server.url, mail });

    const streamErrors: string[] = [];
    for (let i = 0; i < options.subscribers; i += 1) {
      const subscriber = new SseSubscriber(server.url, session.cookieHeader, (message) =>
        streamErrors.push(message),
      );
      subscribers.push(subscriber);
      await subscriber.open();
    }
    log(`${options.subscribers} subscribers connected; ${options.writers} writers start`);

    const byStatus: Record<string, number> = {};
    const latencies: number[] = [];
    let unanswered = 0;
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    // V8 sizes its heap to the load during the first tens of seconds (the live heap after a
    // full collection stays flat, about 40-50 MB, while the space it keeps grows to fit the
    // allocation rate): memory is compared from the end of the first third of the run.
    const warmUpMs = Math.max(5000, (options.seconds * 1000) / 3);
    const rssCurve: number[] = [];
    let rssWarmKb = 0;
    let rssMaxKb = 0;
    const running = server;
    const sampler = setInterval(() => {
      const rss = running.rssKb();
      rssMaxKb = Math.max(rssMaxKb, rss);
      if (rssWarmKb === 0 && performance.now() - started >= warmUpMs) rssWarmKb = rss;
      const elapsed = Math.round((performance.now() - started) / 1000);
      if (elapsed > 0 && elapsed % 10 === 0) {
        rssCurve.push(rss);
        const requests = Object.values(byStatus).reduce((a, b) => a + b, 0);
        log(`${elapsed} s: ${requests} requests, RSS ${Math.round(rss / 1024)} MB`);
      }
    }, 1000);

    const writer = async (w: number): Promise<void> => {
      const mine: Client[] = [];
      for (let n = 0; performance.now() < deadline; n += 1) {
        const update = mine.length > 0 && randomInt(10) < 6;
        const index = randomInt(Math.max(1, mine.length));
        const body = randomClientBody(`soak-w${w}-${n}`, { password: randomInt(3) === 0 });
        const sentAt = performance.now();
        try {
          const { status, body: answer } = update
            ? await session.json<Client>('PUT', `/api/clients/${mine[index]!.id}`, {
                ...body,
                version: mine[index]!.version,
              })
            : await session.json<Client>('POST', '/api/clients', body);
          latencies.push(performance.now() - sentAt);
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          if (status === 201) mine.push(answer);
          else if (status === 200) mine[index] = answer;
        } catch {
          unanswered += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: options.writers }, (_, w) => writer(w)));
    clearInterval(sampler);
    const rssEndKb = server.rssKb();
    if (rssWarmKb === 0) rssWarmKb = rssEndKb;

    // Every subscriber must reach the last event; give slow ones a moment to drain.
    const head = await lastSeq(session);
    const drainUntil = performance.now() + 15_000;
    while (subscribers.some((s) => s.last < head) && performance.now() < drainUntil) {
      await sleep(100);
    }
    const lagging = subscribers.filter((s) => s.last < head).length;

    const requests = Object.values(byStatus).reduce((a, b) => a + b, 0) + unanswered;
    const serverErrors = Object.entries(byStatus)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    const unexpected = Object.entries(byStatus)
      .filter(([status]) => Number(status) < 500 && status !== '200' && status !== '201')
      .reduce((sum, [, n]) => sum + n, 0);
    const sorted = latencies.sort((a, b) => a - b);
    const received = subscribers.map((s) => s.received);
    const dropped = subscribers.reduce((sum, s) => sum + s.dropped, 0);
    const reordered = subscribers.reduce((sum, s) => sum + s.reordered, 0);
    const rssGrowth = rssEndKb / rssWarmKb - 1;

    const failures: string[] = [];
    if (serverErrors > 0) failures.push(`${serverErrors} answers were 5xx`);
    if (unanswered > 0) failures.push(`${unanswered} requests got no answer`);
    if (unexpected > 0) failures.push(`${unexpected} answers were neither 200 nor 201`);
    if (dropped > 0) failures.push(`${dropped} events were dropped at subscribers`);
    if (reordered > 0) failures.push(`${reordered} events came out of order at subscribers`);
    if (lagging > 0) failures.push(`${lagging} subscribers never reached event ${head}`);
    if (streamErrors.length > 0) failures.push(`stream errors: ${streamErrors.join('; ')}`);
    if (rssGrowth > 0.2)
      failures.push(`RSS grew ${(rssGrowth * 100).toFixed(0)}% after warm-up (limit 20%)`);

    return {
      database: options.postgres ? 'postgres' : 'sqlite',
      seconds: options.seconds,
      requests,
      byStatus,
      serverErrors,
      unanswered,
      unexpected,
      latencyMs: {
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        max: sorted.at(-1) ?? 0,
      },
      events: head,
      subscribers: subscribers.length,
      receivedMin: Math.min(...received),
      receivedMax: Math.max(...received),
      dropped,
      reordered,
      reconnects: subscribers.reduce((sum, s) => sum + s.reconnects, 0),
      lagging,
      rssWarmKb,
      rssEndKb,
      rssMaxKb,
      rssCurveKb: rssCurve,
      rssGrowth,
      passed: failures.length === 0,
      failures,
    };
  } finally {
    for (const subscriber of subscribers) subscriber.close();
    await server?.stop();
    await mail.close();
    await postgres?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The newest sequence number, from a fresh stream's `stream.ready`. */
async function lastSeq(session: Session): Promise<number> {
  const probe = new SseSubscriber(session.server.url, session.cookieHeader, () => undefined);
  await probe.open();
  probe.close();
  return probe.last;
}

export function formatSoak(r: SoakResult): string {
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const statuses = Object.entries(r.byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return [
    `soak on ${r.database}, ${r.seconds} s, loopback`,
    `  requests      ${r.requests} (${(r.requests / r.seconds).toFixed(0)}/s; ${statuses}; no answer: ${r.unanswered})`,
    `  5xx           ${r.serverErrors}`,
    `  latency       median ${ms(r.latencyMs.p50)}, p99 ${ms(r.latencyMs.p99)}, max ${ms(r.latencyMs.max)}`,
    `  events        ${r.events} in the log; each of ${r.subscribers} subscribers received ${r.receivedMin}${r.receivedMin === r.receivedMax ? '' : `..${r.receivedMax}`}`,
    `  dropped       ${r.dropped}, reordered ${r.reordered}, reconnects ${r.reconnects}, behind at the end ${r.lagging}`,
    `  server RSS    ${mb(r.rssWarmKb)} after warm-up, ${mb(r.rssEndKb)} at the end (${r.rssGrowth >= 0 ? '+' : ''}${(r.rssGrowth * 100).toFixed(1)}%), peak ${mb(r.rssMaxKb)}`,
    `  RSS every 10 s ${r.rssCurveKb.map((kb) => Math.round(kb / 1024)).join(', ')} MB`,
    r.passed ? 'PASS' : `FAIL: ${r.failures.join('; ')}`,
  ].join('\n');
}
