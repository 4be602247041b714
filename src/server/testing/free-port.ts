import { randomInt } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Below Linux's ephemeral range (32768–60999), where outgoing connections take their ports. */
const SERVER_PORTS = { from: 20_000, to: 32_000 };

/**
 * A port on 127.0.0.1 for a server that is started as a process and listens seconds later. A
 * port freePort gives is one of the ephemeral ones, which the system hands to any outgoing
 * connection once it is free, and during a start on a busy machine another test's connection
 * took one (EADDRINUSE at the listen). Outside that range only a listen can take it.
 */
export async function serverPort(): Promise<number> {
  for (;;) {
    const port = randomInt(SERVER_PORTS.from, SERVER_PORTS.to);
    if (await canListen(port)) return port;
  }
}

/** Where no test server listens: below serverPort's range, and Linux's ephemeral one. */
const CLOSED_PORTS = { from: 10_000, to: 20_000 };

/**
 * A port on 127.0.0.1 that nothing listens on, for a check that must find it closed. One of
 * freePort's could be taken meanwhile by another test's server (they listen on those), and then
 * the "closed" port answers; no test server listens in this range.
 */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = randomInt(CLOSED_PORTS.from, CLOSED_PORTS.to);
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
