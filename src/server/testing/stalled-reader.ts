import net from 'node:net';
import { once } from 'node:events';
import type { Session } from './test-server.ts';

/**
 * A client that sends one request on a raw socket, reads until the answer's head has come (the
 * server is sending it), then stops reading: what a slow or stalled reader does to the server.
 * `finish()` reads the rest and resolves once the server has closed the connection; `closed`
 * resolves when the socket closes, whoever closed it.
 */
export interface StalledReader {
  /** The status line and headers. */
  readonly head: string;
  readonly status: number;
  readonly socket: net.Socket;
  readonly closed: Promise<void>;
  /**
   * The server's end of the connection, when its server was given: its 'close' is the server
   * giving up on the reader, which the reader, not reading, would not see.
   */
  readonly serverSocket: net.Socket | undefined;
  /** Reads the rest of the answer; resolves with its body once the server has closed. */
  finish(): Promise<string>;
}

export async function stalledRequest(
  session: Session,
  path: string,
  options: { method?: string; body?: unknown; server?: net.Server } = {},
): Promise<StalledReader> {
  const url = new URL(session.server.url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const accepted: net.Socket[] = [];
  const onConnection = (socket: net.Socket) => accepted.push(socket);
  options.server?.on('connection', onConnection);
  const socket = net.connect(Number(url.port), url.hostname);
  const closed = once(socket, 'close').then(() => undefined);
  await once(socket, 'connect');
  socket.write(
    [
      `${options.method ?? 'GET'} ${path} HTTP/1.1`,
      `host: ${url.host}`,
      `origin: ${url.origin}`,
      `cookie: ${session.cookieHeader}`,
      // The server ends the connection once the answer is sent: its close is the signal that it
      // has sent everything.
      'connection: close',
      ...(body === undefined
        ? []
        : ['content-type: application/json', `content-length: ${Buffer.byteLength(body)}`]),
      '',
      body ?? '',
    ].join('\r\n'),
  );
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if (!Buffer.concat(chunks).includes('\r\n\r\n')) return;
      socket.pause();
      socket.off('data', onData);
      socket.off('error', reject);
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  // The server has answered, so it has taken the connection.
  options.server?.off('connection', onConnection);
  const serverSocket = accepted.find((accepted) => accepted.remotePort === socket.localPort);
  if (options.server && !serverSocket) throw new Error('the server did not take the connection');
  const received = Buffer.concat(chunks);
  const head = received.subarray(0, received.indexOf('\r\n\r\n')).toString('latin1');
  return {
    head,
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    socket,
    closed,
    serverSocket,
    async finish() {
      const rest: Buffer[] = [received];
      socket.on('data', (chunk: Buffer) => rest.push(chunk));
      socket.resume();
      await closed;
      const all = Buffer.concat(rest);
      return all.subarray(all.indexOf('\r\n\r\n') + 4).toString('utf8');
    },
  };
}
