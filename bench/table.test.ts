import { describe, expect, it } from 'vitest';
import type { LoadResult } from './http-load.ts';
import { formatTable, type BenchReport, type DatabaseFigures } from './table.ts';

const load = (requestsPerSecond: number): LoadResult => ({
  requestsPerSecond,
  p50Ms: 0,
  p99Ms: 1,
  requests: requestsPerSecond * 5,
  failures: 0,
});

function database(
  database: DatabaseFigures['database'],
  floorOne: number,
  one: number,
): DatabaseFigures {
  return {
    database,
    sizes: [
      {
        clients: 1000,
        listBytes: 460 * 1024,
        list: load(3000),
        one: load(one),
        floorList: load(3500),
        floorOne: load(floorOne),
        fastifyOne: load(floorOne * 0.9),
      },
    ],
    peakRssMb: 150,
  };
}

function report(databases: DatabaseFigures[]): BenchReport {
  return {
    at: '2026-11-24T05:34:04.746Z',
    machine: { cpus: 2, cpuModel: 'test', node: 'v24', platform: 'linux', loadAverageAtStart: [0] },
    settings: { runs: 3, seconds: 5, sizes: [1000], subscribers: [500], connections: 20 },
    databases,
  };
}

/** The table's row whose measure starts with `measure`, as its cells. */
function row(table: string, measure: string): string[] {
  const line = table.split('\n').find((l) => l.startsWith(`| ${measure}`));
  if (!line) throw new Error(`no row ${measure}`);
  return line.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, ''));
}

describe('the bench table', () => {
  it("divides each database's requests by its own floor and shows each floor", () => {
    const table = formatTable(
      report([database('sqlite', 60_000, 40_000), database('postgres', 64_000, 30_000)]),
    );
    const floor = row(table, 'floor, get-one');
    expect(floor[1]).toMatch(/^60,000\/s/);
    expect(floor[2]).toMatch(/^64,000\/s/);
    const one = row(table, 'get-one (1,000 stored)');
    expect(one[1]).toMatch(/^40,000\/s \(67%\)/);
    // 30,000 is 50% of SQLite's floor but 47% of its own: the target is missed.
    expect(one[2]).toMatch(/^30,000\/s \(47%\)/);
    expect(one.at(-1)).toBe('**no**');
  });

  it('meets the get-one target when every database reaches half its own floor', () => {
    const table = formatTable(
      report([database('sqlite', 60_000, 40_000), database('postgres', 64_000, 32_000)]),
    );
    expect(row(table, 'get-one (1,000 stored)').at(-1)).toBe('yes');
    expect(row(table, 'Fastify alone')[2]).toMatch(/^57,600\/s \(90%\)/);
  });

  it('leaves a dash where a database has no figures at a size', () => {
    const postgres = { ...database('postgres', 64_000, 32_000), sizes: [] };
    const table = formatTable(report([database('sqlite', 60_000, 40_000), postgres]));
    expect(row(table, 'floor, get-one')[2]).toBe('–');
  });
});
