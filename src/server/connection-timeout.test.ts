import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeAll, expect, it } from 'vitest';
import { serveThisFile } from '#server/testing/file-server.ts';
import { importLargeClients } from '#server/testing/large-clients.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { stalledRequest } from '#server/testing/stalled-reader.ts';

/** Far shorter than the server's own: the stream still speaks well within the timeout. */
const TIMEOUT_MS = 3_000;
const KEEP_ALIVE_MS = 500;

const t = serveThisFile({
  start: { connection: { timeoutMs: TIMEOUT_MS, streamKeepAliveMs: KEEP_ALIVE_MS } },
  staff: { alice: { name: 'Alice' } },
});

beforeAll(async () => {
  // A list of some 16 MB: more than the socket buffers hold, so a reader that stops leaves the
  // server with most of it still to send.
  await importLargeClients(t.staff.alice, 700);
});

it(
  'closes the connection of a reader that stopped reading, and not a live stream that reads',
  async () => {
    const stream = await openEventStream(t.server.url, t.staff.alice.cookieHeader);
    const reader = await stalledRequest(t.staff.alice, '/api/clients', {
      server: t.server.app.server,
    });
    expect(reader.status).toBe(200);
    const serverSocket = reader.serverSocket!;
    // Most of the list is still waiting on the server's side for the reader.
    expect(serverSocket.writableLength).toBeGreaterThan(0);

    // Node lets a reader go one to two timeouts after the last byte it took; the bound is for a
    // hang past that: the server's close is the signal waited for.
    const closed = await Promise.race([
      once(serverSocket, 'close').then(() => true),
      delay(2 * TIMEOUT_MS + 15_000).then(() => false),
    ]);
    expect(closed, 'the server kept the connection of a reader that stopped reading').toBe(true);

    // Open all along: the keep-alive comments kept its socket active.
    expect(stream.ended).toBe(false);
    expect(stream.raw).toContain(': keep-alive');
    stream.close();
    reader.socket.destroy();
  },
  2 * TIMEOUT_MS + 30_000,
);
