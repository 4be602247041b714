import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/test-server.ts';

interface Line {
  level: number;
  msg: string;
}

/** The JSON lines a test server writes while it answers one request. */
async function linesFor(env: Record<string, string>): Promise<Line[]> {
  const lines: Line[] = [];
  const server = await startTestServer(env, {
    logStream: { write: (line) => lines.push(JSON.parse(line) as Line) },
  });
  try {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
  } finally {
    await server.close();
  }
  return lines.filter(
    (line) => line.msg === 'incoming request' || line.msg === 'request completed',
  );
}

const INFO = 30;
const DEBUG = 20;

describe('request log lines', () => {
  it('are info in development', async () => {
    const lines = await linesFor({ LOG_LEVEL: 'info' });
    expect(lines.map((l) => [l.msg, l.level])).toEqual([
      ['incoming request', INFO],
      ['request completed', INFO],
    ]);
  });

  it('are debug in production, so the default log has none', async () => {
    expect(await linesFor({ LOG_LEVEL: 'info', NODE_ENV: 'production' })).toEqual([]);
    const lines = await linesFor({ LOG_LEVEL: 'debug', NODE_ENV: 'production' });
    expect(lines.map((l) => [l.msg, l.level])).toEqual([
      ['incoming request', DEBUG],
      ['request completed', DEBUG],
    ]);
  });
});
