import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { Client } from '#shared/clients.ts';
import { MailCatcher } from '#server/testing/mail-catcher.ts';
import { serverPort } from '#server/testing/free-port.ts';
import { streamSessions } from '#server/testing/stream-sessions.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { spawnServer, type ServerProcess } from '#server/testing/spawn-server.ts';
import { TestPostgres, createDatabase } from '#server/testing/embedded-postgres.ts';
import { randomClientBody } from './random-client.ts';
import { SseSubscriber } from './sse-subscriber.ts';

export interface SoakOptions {
  /** The measured run; memory is compared between its start and its end. */
  seconds: number;
  /** The same load before it, while V8 sizes its heap to it. */
  warmup: number;
  writers: number;
  subscribers: number;
  postgres: boolean;
  /** With `postgres`: a database to use instead of starting an embedded server. */
  databaseUrl?: string;
  /**
   * Fail on memory growth after the warm-up (default true). Only a run of a minute or more
   * can tell a leak from the allocator and the connection pool still filling up: a run of a
   * few seconds measures memory but does not judge it.
   */
  judgeMemory?: boolean;
  /** Progress lines (one every 10 s); the summary is returned. */
  log?: (line: string) => void;
}

export interface SoakResult {
  database: 'sqlite' | 'postgres';
  seconds: number;
  warmup: number;
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
  /** The heap still live after a full garbage collection (heap-probe.ts), at the same moments. */
  liveWarmKb: number;
  liveEndKb: number;
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
      PORT: String(await serverPort()),
      DATA_DIR: dataDir,
      SMTP_URL: mail.url,
      // A person signs up for each STREAMS_PER_PERSON streams, more than a minute's default.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    };
    if (options.postgres) {
      if (options.databaseUrl) {
        env.DATABASE_URL = options.databaseUrl;
      } else {
        postgres = await TestPostgres.start();
        env.DATABASE_URL = (await createDatabase(postgres.url())).url;
      }
    }
    // The probe reports the live heap on SIGUSR2 (this server only, never in production).
    env.NODE_OPTIONS = `--import ${path.join(import.meta.dirname, 'heap-probe.ts')}`;
    server = await spawnServer(env);
    const session: Session = await signUpVerified({ url: server.url, mail });
    const watchers = await streamSessions({ url: server.url, mail }, options.subscribers);

    const streamErrors: string[] = [];
    for (let i = 0; i < options.subscribers; i += 1) {
      const subscriber = new SseSubscriber(
        server.url,
        watchers.sessionFor(i).cookieHeader,
        (message) => streamErrors.push(message),
      );
      subscribers.push(subscriber);
      await subscriber.open();
    }
    log(`${options.subscribers} subscribers connected; ${options.writers} writers start`);

    const byStatus: Record<string, number> = {};
    const latencies: number[] = [];
    let unanswered = 0;
    const started = performance.now();
    // Under this load V8 grows the heap it keeps (not the live heap, which stays flat) for the
    // first half minute or more: memory is compared from the end of the warm-up.
    const warmEnd = started + options.warmup * 1000;
    const deadline = warmEnd + options.seconds * 1000;
    const rssCurve: number[] = [];
    let rssMaxKb = 0;
    const running = server;
    const memory = (async () => {
      await sleep(warmEnd - performance.now());
      const rssWarmKb = running.rssKb();
      const liveWarmKb = await liveHeapKb(running);
      log(`warm-up done: RSS ${Math.round(rssWarmKb / 1024)} MB; the measured run starts`);
      await sleep(deadline - performance.now());
      return { rssWarmKb, liveWarmKb, rssEndKb: running.rssKb() };
    })();
    const sampler = setInterval(() => {
      const rss = running.rssKb();
      rssMaxKb = Math.max(rssMaxKb, rss);
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
    const { rssWarmKb, liveWarmKb, rssEndKb } = await memory;
    const liveEndKb = await liveHeapKb(server);

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
    const liveGrowth = liveEndKb / liveWarmKb - 1;

    const failures: string[] = [];
    if (serverErrors > 0) failures.push(`${serverErrors} answers were 5xx`);
    if (unanswered > 0) failures.push(`${unanswered} requests got no answer`);
    if (unexpected > 0) failures.push(`${unexpected} answers were neither 200 nor 201`);
    if (dropped > 0) failures.push(`${dropped} events were dropped at subscribers`);
    if (reordered > 0) failures.push(`${reordered} events came out of order at subscribers`);
    if (lagging > 0) failures.push(`${lagging} subscribers never reached event ${head}`);
    if (streamErrors.length > 0) failures.push(`stream errors: ${streamErrors.join('; ')}`);
    const judgeMemory = options.judgeMemory ?? true;
    if (judgeMemory && rssGrowth > 0.2)
      failures.push(`RSS grew ${(rssGrowth * 100).toFixed(0)}% after warm-up (limit 20%)`);
    if (judgeMemory && liveGrowth > 0.2)
      failures.push(
        `the live heap grew ${(liveGrowth * 100).toFixed(0)}% after warm-up (limit 20%)`,
      );

    return {
      database: options.postgres ? 'postgres' : 'sqlite',
      seconds: options.seconds,
      warmup: options.warmup,
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
      liveWarmKb,
      liveEndKb,
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

/** Asks the server's heap probe (heap-probe.ts) for the live heap after a full collection. */
async function liveHeapKb(server: ServerProcess): Promise<number> {
  const answers = () => [...server.output().matchAll(/^heap-probe (\{.*\})$/gm)];
  const before = answers().length;
  server.child.kill('SIGUSR2');
  const until = performance.now() + 10_000;
  for (;;) {
    const found = answers();
    if (found.length > before) return (JSON.parse(found.at(-1)![1]!) as { liveKb: number }).liveKb;
    if (performance.now() > until) throw new Error('the heap probe did not answer');
    await sleep(50);
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
    `soak on ${r.database}, loopback: ${r.warmup} s warm-up + ${r.seconds} s measured, the same load throughout`,
    `  requests      ${r.requests} (${(r.requests / (r.seconds + r.warmup)).toFixed(0)}/s; ${statuses}; no answer: ${r.unanswered})`,
    `  5xx           ${r.serverErrors}`,
    `  latency       median ${ms(r.latencyMs.p50)}, p99 ${ms(r.latencyMs.p99)}, max ${ms(r.latencyMs.max)}`,
    `  events        ${r.events} in the log; each of ${r.subscribers} subscribers received ${r.receivedMin}${r.receivedMin === r.receivedMax ? '' : `..${r.receivedMax}`}`,
    `  dropped       ${r.dropped}, reordered ${r.reordered}, reconnects ${r.reconnects}, behind at the end ${r.lagging}`,
    `  server RSS    ${mb(r.rssWarmKb)} after warm-up, ${mb(r.rssEndKb)} at the end (${r.rssGrowth >= 0 ? '+' : ''}${(r.rssGrowth * 100).toFixed(1)}%), peak ${mb(r.rssMaxKb)}`,
    `  live heap     ${mb(r.liveWarmKb)} after warm-up, ${mb(r.liveEndKb)} at the end (after a full collection)`,
    `  RSS every 10 s ${r.rssCurveKb.map((kb) => Math.round(kb / 1024)).join(', ')} MB`,
    r.passed ? 'PASS' : `FAIL: ${r.failures.join('; ')}`,
  ].join('\n');
}
