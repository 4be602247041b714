import net, { type AddressInfo } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 to `target`, whose answers to the client can be held back: while
 * held, what the server sends is kept, and `deliver` hands all of it to the client in one
 * write and ends the connection (it is meant for after `serverClosed`). A client then reads
 * an answer together with what the server said after it (a PostgreSQL backend's last answer
 * and its "terminating connection"), as a slow network delivers them.
 */
export interface HeldRelay {
  url(databaseUrl: string): string;
  hold(): void;
  /** Resolves once the server has closed its side of every held connection. */
  serverClosed(): Promise<void>;
  deliver(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  kept: Buffer[];
  serverEnded: Promise<void>;
}

export async function startHeldRelay(target: { host: string; port: number }): Promise<HeldRelay> {
  const pairs = new Set<Pair>();
  let holding = false;
  const relay = net.createServer((client) => {
    const server = net.connect(target.port, target.host);
    const pair: Pair = {
      client,
      kept: [],
      serverEnded: new Promise((resolve) => server.once('close', () => resolve())),
    };
    pairs.add(pair);
    server.on('data', (chunk: Buffer) => {
      if (holding) pair.kept.push(chunk);
      else client.write(chunk);
    });
    server.on('close', () => {
      if (!holding) client.end();
    });
    client.on('data', (chunk: Buffer) => server.write(chunk));
    client.on('close', () => {
      server.destroy();
      pairs.delete(pair);
    });
    server.on('error', () => client.destroy());
    client.on('error', () => server.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    hold() {
      holding = true;
    },
    async serverClosed() {
      await Promise.all([...pairs].map((pair) => pair.serverEnded));
    },
    deliver() {
      holding = false;
      for (const pair of pairs) {
        pair.client.end(Buffer.concat(pair.kept));
        pair.kept = [];
      }
    },
    async close() {
      for (const pair of pairs) pair.client.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
