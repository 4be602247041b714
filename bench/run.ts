/**
 * npm run bench: the figures of docs/performance.md. Starts the real server as a child process
 * on SQLite and on an embedded PostgreSQL (durable settings), seeds it through the API, and
 * measures with load generators in processes of their own. Prints one table and writes it,
 * with every sample, to bench/results/<time>.json.
 *
 *   npm run bench -- [--runs 3] [--seconds 5] [--sizes 1000,10000] [--subscribers 100,500]
 *                    [--no-postgres] [--no-web] [--web-dir dist/client]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MailCatcher } from '../src/server/testing/mail-catcher.ts';
import { signUpVerified, type Session } from '../src/server/testing/test-server.ts';
import { streamSessions } from '../src/server/testing/stream-sessions.ts';
import { TestPostgres, createDatabase } from '../src/server/testing/embedded-postgres.ts';
import type { ServerProcess } from '../src/server/testing/spawn-server.ts';
import { startServer, timeToReady } from './server.ts';
import { benchClientBody, seedClients } from './seed.ts';
import { startFloor } from './floor.ts';
import { httpLoad, type LoadResult } from './http-load.ts';
import { sseFanout, type FanoutResult } from './sse-fanout.ts';
import { CHROMIUM, measureWeb, type WebResult } from './web.ts';
import { median, sleep } from './stats.ts';
import { updateLoad } from './update-load.ts';
import { formatTable, type DatabaseFigures, type BenchReport } from './table.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

const CONNECTIONS = 20;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    sizes: { type: 'string', default: '1000,10000' },
    subscribers: { type: 'string', default: '100,500' },
    'no-postgres': { type: 'boolean', default: false },
    'no-web': { type: 'boolean', default: false },
    'web-dir': { type: 'string' },
  },
});
// The browser is needed minutes into a run: one that is not there is said before anything starts.
if (!args['no-web'] && !isExecutable(CHROMIUM)) {
  console.error(
    `No browser at ${CHROMIUM}: install Debian's (apt-get install -y chromium), name another in CHROMIUM_PATH, or run with --no-web.`,
  );
  process.exit(1);
}
const runs = Number(args.runs);
const seconds = Number(args.seconds);
const sizes = args.sizes.split(',').map(Number);
const subscriberCounts = args.subscribers.split(',').map(Number);
// Each run's updates save clients of their own (update-load.ts).
if (sizes.some((size) => !(size >= runs * CONNECTIONS))) {
  console.error(`Each of --sizes must be at least --runs × ${CONNECTIONS}: ${runs * CONNECTIONS}.`);
  process.exit(1);
}

const log = (line: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The median run of `samples` by requests/s, with the failures of all runs added up. */
function medianLoad(samples: LoadResult[]): LoadResult & { samples: LoadResult[] } {
  return {
    requestsPerSecond: median(samples.map((s) => s.requestsPerSecond)),
    p50Ms: median(samples.map((s) => s.p50Ms)),
    p99Ms: median(samples.map((s) => s.p99Ms)),
    requests: samples.reduce((sum, s) => sum + s.requests, 0),
    failures: samples.reduce((sum, s) => sum + s.failures, 0),
    ...(samples.every((s) => s.cpuUsPerRequest !== undefined)
      ? { cpuUsPerRequest: median(samples.map((s) => s.cpuUsPerRequest!)) }
      : {}),
    samples,
  };
}

/** RSS of the server sampled every 100 ms while `work` runs: the highest, in MB. */
async function peakRss<T>(server: ServerProcess, work: () => Promise<T>): Promise<[T, number]> {
  let peak = server.rssKb();
  const timer = setInterval(() => (peak = Math.max(peak, server.rssKb())), 100);
  try {
    return [await work(), peak / 1024];
  } finally {
    clearInterval(timer);
  }
}

/**
 * The server bundle, built as `npm run build` builds dist/server, into a folder of the run's
 * inside the project: the bundle imports better-sqlite3 and pg from node_modules.
 */
function buildServer(): string {
  const cache = path.join(ROOT, 'node_modules/.cache');
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, 'cm-bench-server-'));
  log('building the server');
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'vite.server.config.ts',
      '--outDir',
      dir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return path.join(dir, 'main.mjs');
}

function buildWeb(): string {
  if (args['web-dir']) return path.resolve(args['web-dir']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-web-'));
  log('building the web app');
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', dir, '--emptyOutDir'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return dir;
}

async function benchDatabase(
  kind: 'sqlite' | 'postgres',
  serverEntry: string,
  mail: MailCatcher,
  webDir: string | undefined,
): Promise<{ figures: DatabaseFigures; web?: WebResult }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cm-bench-${kind}-`));
  let postgres: TestPostgres | undefined;
  let server: ServerProcess | undefined;
  const env: Record<string, string> & { DATA_DIR: string } = {
    DATA_DIR: dataDir,
    SMTP_URL: mail.url,
    SECRET_KEY: randomBytes(32).toString('hex'),
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    ...(webDir ? { WEB_DIR: webDir } : {}),
  };
  try {
    if (kind === 'postgres') {
      postgres = await TestPostgres.start({ durable: true });
      env.DATABASE_URL = (await createDatabase(postgres.url())).url;
    }
    server = await startServer(serverEntry, env);
    const running = server;
    const session: Session = await signUpVerified({ url: server.url, mail });
    const watchers = await streamSessions({ url: server.url, mail }, Math.max(...subscriberCounts));
    const headers = { cookie: session.cookieHeader, origin: server.url };
    const figures: DatabaseFigures = { database: kind, sizes: [], peakRssMb: 0 };
    let seeded = 0;
    let peak = 0;

    for (const size of sizes) {
      log(`${kind}: seeding to ${size} clients`);
      await seedClients(session, seeded, size);
      seeded = size;
      const listResponse = await session.request('GET', '/api/clients');
      const listBody = await listResponse.text();
      const someId = (JSON.parse(listBody) as { clients: { id: string }[] }).clients[size >> 1]!.id;
      const oneBody = await (await session.request('GET', `/api/clients/${someId}`)).text();
      // Each database gets its own floor, answering that database's very bytes, measured in
      // turn with its runs: the machine is shared, and a floor measured minutes earlier, while
      // the other database ran, would be a ratio to other conditions.
      const floorServer = await startFloor(dataDir, listBody, oneBody);
      const fastifyServer = await startFloor(dataDir, listBody, oneBody, 'fastify');
      const list: LoadResult[] = [];
      const one: LoadResult[] = [];
      const floorList: LoadResult[] = [];
      const floorOne: LoadResult[] = [];
      const fastifyOne: LoadResult[] = [];
      const history: LoadResult[] = [];
      const updates: LoadResult[] = [];
      // Each update connection saves a client of its own (a save carries the version it read),
      // and each run other clients: see updateLoad.
      const listed = (JSON.parse(listBody) as { clients: { id: string; version: number }[] })
        .clients;
      const updatedIn = (run: number) =>
        listed
          .slice(run * CONNECTIONS, (run + 1) * CONNECTIONS)
          .map(({ id, version }) => ({ id, version }));
      log(
        `${kind}: list, get-one, history and update at ${size} clients, ${runs} × ${seconds} s each`,
      );
      const load = (url: string, auth: boolean, serverPid: number) =>
        httpLoad({
          url,
          connections: CONNECTIONS,
          seconds,
          headers: auth ? headers : {},
          serverPid,
        });
      try {
        for (let run = 0; run < runs; run += 1) {
          // Interleaved with the floor's runs, so that both see the same machine.
          const [results, rss] = await peakRss(running, async () => [
            await load(`${running.url}/api/clients`, true, running.pid),
            await load(`${running.url}/api/clients/${someId}`, true, running.pid),
            await load(`${running.url}/api/clients/${someId}/history`, true, running.pid),
            await updateLoad({ url: running.url, headers, clients: updatedIn(run), seconds }),
          ]);
          peak = Math.max(peak, rss);
          list.push(results[0]!);
          one.push(results[1]!);
          history.push(results[2]!);
          updates.push(results[3]!);
          floorList.push(await load(`${floorServer.url}/api/clients`, false, floorServer.pid));
          floorOne.push(await load(`${floorServer.url}/api/clients/x`, false, floorServer.pid));
          fastifyOne.push(
            await load(`${fastifyServer.url}/api/clients/x`, false, fastifyServer.pid),
          );
        }
      } finally {
        await floorServer.stop();
        await fastifyServer.stop();
      }
      figures.sizes.push({
        clients: size,
        listBytes: Buffer.byteLength(listBody),
        list: medianLoad(list),
        one: medianLoad(one),
        floorList: medianLoad(floorList),
        floorOne: medianLoad(floorOne),
        fastifyOne: medianLoad(fastifyOne),
        history: medianLoad(history),
        update: medianLoad(updates),
      });
    }

    let web: WebResult | undefined;
    if (webDir && kind === 'sqlite') {
      log(`web: Chromium on ${seeded} clients, ${runs} fresh tabs`);
      web = await measureWeb({ url: server.url, webDir, session, runs });
    }

    await sleep(2000);
    figures.idleRssMb = server.rssKb() / 1024;

    // The RSS figure is taken during the largest count, which comes last.
    let fanoutPeak = 0;
    figures.fanouts = [];
    for (const subscribers of subscriberCounts) {
      log(`${kind}: live fan-out to ${subscribers} subscribers, ${runs} runs`);
      const fanouts: FanoutResult[] = [];
      fanoutPeak = 0;
      for (let run = 0; run < runs; run += 1) {
        const [result, rss] = await peakRss(running, () =>
          sseFanout({ url: running.url, session, watchers, subscribers, writes: 100 }),
        );
        fanouts.push(result);
        fanoutPeak = Math.max(fanoutPeak, rss);
        await sleep(500);
      }
      figures.fanouts.push({
        subscribers,
        events: fanouts.reduce((sum, f) => sum + f.events, 0),
        allP50Ms: median(fanouts.map((f) => f.allP50Ms)),
        allP99Ms: median(fanouts.map((f) => f.allP99Ms)),
        allMaxMs: Math.max(...fanouts.map((f) => f.allMaxMs)),
        eachP50Ms: median(fanouts.map((f) => f.eachP50Ms)),
        eachP99Ms: median(fanouts.map((f) => f.eachP99Ms)),
        complete: fanouts.every((f) => f.complete),
        samples: fanouts,
      });
    }
    figures.fanoutRssMb = fanoutPeak;

    log(`${kind}: create, ${runs} × ${seconds} s`);
    const before = await countClients(session);
    const creates: LoadResult[] = [];
    for (let run = 0; run < runs; run += 1) {
      const [result, rss] = await peakRss(running, () =>
        httpLoad({
          url: `${running.url}/api/clients`,
          method: 'POST',
          connections: CONNECTIONS,
          seconds,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(benchClientBody(2_000_000 + run)),
        }),
      );
      creates.push(result);
      peak = Math.max(peak, rss);
    }
    figures.create = medianLoad(creates);
    // Every acknowledged create is in the table (autocannon counts only answered requests).
    const after = await countClients(session);
    const acknowledged = creates.reduce((sum, c) => sum + c.requests - c.failures, 0);
    figures.createdRows = after - before;
    figures.createAcknowledged = acknowledged;
    figures.peakRssMb = Math.max(peak, fanoutPeak);

    await server.stop();
    server = undefined;
    log(`${kind}: time to ready, ${runs} starts on ${after} clients`);
    const readies: number[] = [];
    for (let run = 0; run < runs; run += 1) readies.push(await timeToReady(serverEntry, env));
    figures.readyMs = median(readies);
    figures.readySamples = readies;
    return { figures, ...(web ? { web } : {}) };
  } finally {
    await server?.stop();
    await postgres?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function countClients(session: Session): Promise<number> {
  const { body } = await session.json<{ clients: unknown[] }>('GET', '/api/clients');
  return body.clients.length;
}

const report: BenchReport = {
  at: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
  },
  settings: { runs, seconds, sizes, subscribers: subscriberCounts, connections: CONNECTIONS },
  databases: [],
};

const mail = await new MailCatcher().start();
const serverEntry = buildServer();
try {
  const webDir = args['no-web'] ? undefined : buildWeb();
  const kinds: ('sqlite' | 'postgres')[] = args['no-postgres']
    ? ['sqlite']
    : ['sqlite', 'postgres'];
  for (const kind of kinds) {
    const { figures, web } = await benchDatabase(kind, serverEntry, mail, webDir);
    report.databases.push(figures);
    if (web) report.web = web;
  }
  report.machine.loadAverageAtEnd = os.loadavg();
} finally {
  await mail.close();
  fs.rmSync(path.dirname(serverEntry), { recursive: true, force: true });
}

const table = formatTable(report);
console.log(`\n${table}`);
const resultsDir = path.join(ROOT, 'bench/results');
fs.mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `${report.at.replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(file, `${JSON.stringify({ ...report, table }, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(ROOT, file)}`);
