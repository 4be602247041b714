import { describe, expect, it } from 'vitest';
import type { LoadResult } from './http-load.ts';
import { formatTable, type BenchReport, type DatabaseFigures } from './table.ts';

const load = (requestsPerSecond: number, p99Ms = 1): LoadResult => ({
  requestsPerSecond,
  p50Ms: 0,
  p99Ms,
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
    // The share of the floor is shown, not judged.
    expect(one[1]).toMatch(/^40,000\/s \(67%\)/);
    expect(one[2]).toMatch(/^30,000\/s \(47%\)/);
    expect(one.at(-1)).toBe('yes');
    expect(row(table, 'Fastify alone')[2]).toMatch(/^57,600\/s \(90%\)/);
  });

  it('judges get-one by what a person feels: p99 and requests a second on each database', () => {
    const slow = database('postgres', 64_000, 30_000);
    slow.sizes[0]!.one = load(30_000, 26);
    expect(
      row(formatTable(report([database('sqlite', 60_000, 40_000), slow])), 'get-one').at(-1),
    ).toBe('**no**');
    const few = database('postgres', 64_000, 1_999);
    expect(
      row(formatTable(report([database('sqlite', 60_000, 40_000), few])), 'get-one').at(-1),
    ).toBe('**no**');
  });

  it('judges the list of 1,000 by its p99 against twice the floor’s', () => {
    const db = database('sqlite', 60_000, 40_000);
    db.sizes[0]!.floorList = load(3500, 10);
    db.sizes[0]!.list = load(3000, 21);
    expect(row(formatTable(report([db])), 'list of 1,000').at(-1)).toBe('**no**');
    db.sizes[0]!.list = load(3000, 20);
    expect(row(formatTable(report([db])), 'list of 1,000').at(-1)).toBe('yes');
  });

  it('says whether the host was quiet enough to judge absolute times', () => {
    expect(formatTable(report([database('sqlite', 60_000, 40_000)]))).toContain(
      'Quiet host (floor get-one ≥ 40,000/s in this run, so absolute times can be judged): yes.',
    );
    expect(formatTable(report([database('sqlite', 21_000, 17_000)]))).toContain(
      'no (lowest floor 21,000/s)',
    );
  });

  it('leaves a dash where a database has no figures at a size', () => {
    const postgres = { ...database('postgres', 64_000, 32_000), sizes: [] };
    const table = formatTable(report([database('sqlite', 60_000, 40_000), postgres]));
    expect(row(table, 'floor, get-one')[2]).toBe('–');
  });
});
