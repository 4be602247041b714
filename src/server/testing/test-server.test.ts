import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { isAddressInUse, startTestServer } from './test-server.ts';

it('gives up on a port it was given that something else has taken, with the reason', async () => {
  const taken = net.createServer();
  taken.listen(0, '127.0.0.1');
  await once(taken, 'listening');
  try {
    const port = (taken.address() as AddressInfo).port;
    const error: unknown = await startTestServer({}, { port }).then(
      () => undefined,
      (refused: unknown) => refused,
    );
    expect(isAddressInUse(error)).toBe(true);
  } finally {
    taken.close();
  }
});
