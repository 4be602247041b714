import type { LoadResult } from './http-load.ts';
import type { FanoutResult } from './sse-fanout.ts';
import type { WebResult } from './web.ts';
import { DASHBOARD_BUDGET } from './bundle-size.ts';

export interface SizeFigures {
  clients: number;
  listBytes: number;
  list: LoadResult;
  one: LoadResult;
  floorList: LoadResult;
  floorOne: LoadResult;
  /** Fastify alone (no hooks, no database) answering the same bytes: a reference, no target. */
  fastifyOne?: LoadResult;
  /** One client's history (`GET /api/clients/:id/history`). */
  history?: LoadResult;
  /** Saves, each connection its own client (bench/update-load.ts). */
  update?: LoadResult;
}

/** What a person feels: one record's answer at 20 connections, on either database. */
export const SINGLE_RECORD_P99_MS = 25;
export const GET_ONE_PER_SECOND = 2000;
/** A host is quiet enough to judge absolute times when its floor answers this many get-ones. */
export const QUIET_FLOOR_PER_SECOND = 40_000;

export interface DatabaseFigures {
  database: 'sqlite' | 'postgres';
  sizes: SizeFigures[];
  create?: LoadResult;
  createAcknowledged?: number;
  createdRows?: number;
  fanouts?: (Omit<FanoutResult, 'events'> & { events: number; samples: FanoutResult[] })[];
  idleRssMb?: number;
  fanoutRssMb?: number;
  peakRssMb: number;
  readyMs?: number;
  readySamples?: number[];
}

export interface BenchReport {
  at: string;
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    platform: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd?: number[];
  };
  settings: {
    runs: number;
    seconds: number;
    sizes: number[];
    subscribers: number[];
    connections: number;
  };
  databases: DatabaseFigures[];
  web?: WebResult;
}

const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (value: number) => `${n(value, value < 10 ? 1 : 0)} ms`;
const kb = (bytes: number) => `${n(bytes / 1024, 1)} KB`;
const check = (ok: boolean) => (ok ? 'yes' : '**no**');

function load(result: LoadResult, floor?: LoadResult): string {
  const share = floor ? ` (${n((100 * result.requestsPerSecond) / floor.requestsPerSecond)}%)` : '';
  const failed = result.failures > 0 ? ` ⚠ ${result.failures} failed` : '';
  const cpu =
    result.cpuUsPerRequest === undefined ? '' : `; ${n(result.cpuUsPerRequest)} µs CPU a request`;
  return `${n(result.requestsPerSecond)}/s${share}, p50 ${ms(result.p50Ms)}, p99 ${ms(result.p99Ms)}${cpu}${failed}`;
}

/** One Markdown table: what the bench measured, per database, against the targets. */
export function formatTable(report: BenchReport): string {
  const dbs = report.databases;
  const header = [
    'measure',
    ...dbs.map((d) => (d.database === 'sqlite' ? 'SQLite' : 'PostgreSQL')),
    'target',
    'met',
  ];
  const rows: string[][] = [];
  const row = (measure: string, cells: string[], target: string, met: boolean) =>
    rows.push([measure, ...cells, target, check(met)]);

  for (const [i, size] of report.settings.sizes.entries()) {
    const at = dbs.map((d) => d.sizes[i]).filter((s) => s !== undefined);
    if (at.length === 0) continue;
    // Each database's floor answered that database's own bytes, measured in turn with it.
    const each = (cell: (s: SizeFigures) => string) =>
      dbs.map((d) => (d.sizes[i] ? cell(d.sizes[i]) : '–'));
    row(
      `floor (bare node:http), list of ${n(size)} (${kb(at[0]!.listBytes)})`,
      each((s) => load(s.floorList)),
      '',
      true,
    );
    const listTarget = size === 1000;
    row(
      `list of ${n(size)}`,
      at.map((s) => load(s.list, s.floorList)),
      listTarget ? 'p99 ≤ 2 × floor p99' : '',
      at.every(
        (s) => s.list.failures === 0 && (!listTarget || s.list.p99Ms <= 2 * s.floorList.p99Ms),
      ),
    );
    row(
      `floor, get-one`,
      each((s) => load(s.floorOne)),
      '',
      true,
    );
    if (at.some((s) => s.fastifyOne)) {
      row(
        `Fastify alone, get-one (same bytes, no hooks, no database)`,
        each((s) => (s.fastifyOne ? load(s.fastifyOne, s.floorOne) : '–')),
        '',
        true,
      );
    }
    row(
      `get-one (${n(size)} stored)`,
      at.map((s) => load(s.one, s.floorOne)),
      `p99 ≤ ${SINGLE_RECORD_P99_MS} ms, ≥ ${n(GET_ONE_PER_SECOND)}/s`,
      at.every(
        (s) =>
          s.one.p99Ms <= SINGLE_RECORD_P99_MS &&
          s.one.requestsPerSecond >= GET_ONE_PER_SECOND &&
          s.one.failures === 0,
      ),
    );
    for (const [label, pick] of [
      ['history of one client', (s: SizeFigures) => s.history],
      ['update (each connection its own client)', (s: SizeFigures) => s.update],
    ] as const) {
      if (!at.some((s) => pick(s))) continue;
      row(
        `${label} (${n(size)} stored)`,
        each((s) => {
          const result = pick(s);
          return result ? load(result) : '–';
        }),
        `p99 ≤ ${SINGLE_RECORD_P99_MS} ms`,
        at.every((s) => {
          const result = pick(s);
          return !!result && result.p99Ms <= SINGLE_RECORD_P99_MS && result.failures === 0;
        }),
      );
    }
  }
  const sqlite = dbs.find((d) => d.database === 'sqlite');
  row(
    'create (each answer after its commit)',
    dbs.map((d) =>
      d.create
        ? `${load(d.create)}; ${n(d.createAcknowledged ?? 0)} answered, ${n(d.createdRows ?? 0)} rows`
        : '–',
    ),
    `p99 ≤ ${SINGLE_RECORD_P99_MS} ms; SQLite ≥ 1,500/s`,
    !!sqlite?.create &&
      sqlite.create.requestsPerSecond >= 1500 &&
      dbs.every((d) => !!d.create && d.create.p99Ms <= SINGLE_RECORD_P99_MS) &&
      // Requests still in flight when a run stops may commit unanswered: rows ≥ answers.
      dbs.every((d) => (d.createdRows ?? 0) >= (d.createAcknowledged ?? Infinity)),
  );
  const largestFanout = Math.max(...report.settings.subscribers);
  for (const [k, count] of report.settings.subscribers.entries()) {
    const target = count === largestFanout;
    row(
      `live fan-out, ${n(count)} subscribers (answer → last subscriber)`,
      dbs.map((d) => {
        const f = d.fanouts?.[k];
        return f
          ? `p50 ${ms(f.allP50Ms)}, p99 ${ms(f.allP99Ms)}, max ${ms(f.allMaxMs)}; every event in order: ${f.complete ? 'yes' : 'NO'}`
          : '–';
      }),
      target ? 'p99 ≤ 50 ms, all in order' : 'all in order',
      dbs.every((d) => {
        const f = d.fanouts?.[k];
        return !!f && f.complete && (!target || f.allP99Ms <= 50);
      }),
    );
  }
  row(
    `server RSS idle / under ${n(Math.max(...report.settings.subscribers))}-subscriber fan-out / peak of the run`,
    dbs.map((d) => `${n(d.idleRssMb ?? 0)} / ${n(d.fanoutRssMb ?? 0)} / ${n(d.peakRssMb)} MB`),
    '≤ 200 MB under fan-out',
    dbs.every((d) => (d.fanoutRssMb ?? Infinity) <= 200),
  );
  row(
    'start to ready',
    dbs.map((d) => (d.readyMs === undefined ? '–' : ms(d.readyMs))),
    '≤ 1 s',
    dbs.every((d) => (d.readyMs ?? Infinity) <= 1000),
  );
  const web = report.web;
  if (web) {
    const cell = (text: string) => dbs.map((_, j) => (j === 0 ? text : ''));
    row(
      'sign-in page JS / CSS, gzip',
      cell(`${kb(web.signInJsGzip)} / ${kb(web.signInCssGzip)}`),
      'JS less than the dashboard',
      web.signInJsGzip < web.dashboardJsGzip,
    );
    row(
      'dashboard JS / CSS, gzip',
      cell(`${kb(web.dashboardJsGzip)} / ${kb(web.dashboardCssGzip)}`),
      `JS ≤ ${DASHBOARD_BUDGET / 1024} KB`,
      web.dashboardJsGzip <= DASHBOARD_BUDGET,
    );
    const largest = Math.max(...report.settings.sizes);
    row(
      `navigation → list of ${n(largest)} visible (Chromium): first visit / again`,
      cell(`${ms(web.listVisibleMs)} / ${ms(web.listVisibleWarmMs)}`),
      '≤ 1 s (first visit)',
      web.listVisibleMs <= 1000,
    );
    row(
      'search keystroke → list updated',
      cell(ms(web.keystrokeMs)),
      '≤ 50 ms',
      web.keystrokeMs <= 50,
    );
    row(
      'list rows in the DOM',
      cell(`${n(web.rowsInDom)} of ${n(largest)}`),
      'only those in view',
      web.rowsInDom < 100,
    );
  }
  const m = report.machine;
  const floors = dbs.flatMap((d) => d.sizes.map((size) => size.floorOne.requestsPerSecond));
  const quiet = floors.length > 0 && Math.min(...floors) >= QUIET_FLOOR_PER_SECOND;
  const lines = [
    `Clients Manager bench, ${report.at.slice(0, 16).replace('T', ' ')} UTC: ${m.cpus} × ${m.cpuModel}, Node ${m.node}, ${m.platform}; load average ${m.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')} at start.`,
    `Medians of ${report.settings.runs} runs of ${report.settings.seconds} s, ${report.settings.connections} connections (autocannon; in a process of its own for the reads and creates); % = share of the floor's requests/s, shown, not a target.`,
    `Quiet host (floor get-one ≥ ${n(QUIET_FLOOR_PER_SECOND)}/s in this run, so absolute times can be judged): ${quiet ? 'yes' : `no (lowest floor ${n(Math.min(...floors))}/s)`}.`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  return lines.join('\n');
}
