import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientExport } from '#shared/client-transfer.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { importLargeClients } from '#server/testing/large-clients.ts';
import { stalledRequest } from '#server/testing/stalled-reader.ts';
import { EXPORT_BUSY_MESSAGE, EXPORT_RETRY_AFTER_SECONDS } from './export-gate.ts';

const t = serveThisFile({
  staff: { alice: { name: 'Alice' }, viola: { name: 'Viola', role: 'viewer' } },
});

let ids: string[];
beforeAll(async () => {
  // Large enough that an export's answer cannot all wait in the socket buffers of a reader that
  // stopped: the server is still sending it, so the first export holds the gate.
  ids = await importLargeClients(t.staff.alice, 700);
});

async function expectBusy(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
  expect(await response.json()).toEqual({ error: EXPORT_BUSY_MESSAGE });
}

describe('one export at a time', () => {
  it('refuses a second export while the first is still being sent, then takes the next', async () => {
    const first = await stalledRequest(t.staff.alice, '/api/clients/export');
    expect(first.status).toBe(200);

    // The same person again, with passwords, and another person's export of chosen clients.
    await expectBusy(await t.staff.alice.request('GET', '/api/clients/export'));
    await expectBusy(await t.staff.alice.request('GET', '/api/clients/export?secrets=1'));
    await expectBusy(
      await t.staff.viola.request('POST', '/api/clients/export', { ids: ids.slice(0, 2) }),
    );

    // The first one read to its end: the server closed the connection once all was sent.
    const file = JSON.parse(await first.finish()) as ClientExport;
    expect(file.clients.length).toBeGreaterThanOrEqual(ids.length);

    const next = await t.staff.viola.request('POST', '/api/clients/export', {
      ids: ids.slice(0, 2),
    });
    expect(next.status).toBe(200);
    expect(((await next.json()) as ClientExport).clients).toHaveLength(2);
  });

  it('is free again once the first export’s reader has gone away', async () => {
    const first = await stalledRequest(t.staff.viola, '/api/clients/export', {
      server: t.server.app.server,
    });
    expect(first.status).toBe(200);
    await expectBusy(await t.staff.alice.request('GET', '/api/clients/export'));

    // Gone once the server has seen it go: its end of the connection closed (the client's end
    // closes first, and the next request could otherwise reach the server before that news).
    const gone = new Promise((resolve) => first.serverSocket!.once('close', resolve));
    first.socket.destroy();
    await gone;
    const next = await t.staff.alice.request('GET', '/api/clients/export');
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });
});
