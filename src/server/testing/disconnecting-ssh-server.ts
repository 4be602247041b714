import { once } from 'node:events';
import net from 'node:net';

/**
 * A server that answers a connection with an SSH DISCONNECT carrying its own description, as
 * any server may, before the key exchange (so in clear): ssh2's server cannot word one, so the
 * few bytes are written here as RFC 4253 §6 and §11.1 lay them out.
 */
export async function startDisconnectingServer(description: string): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('SSH-2.0-Disconnecting\r\n');
    socket.once('data', () => socket.end(disconnectPacket(description)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

function disconnectPacket(description: string): Buffer {
  const u32 = (n: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(n);
    return bytes;
  };
  const text = Buffer.from(description, 'utf8');
  const SSH_MSG_DISCONNECT = 1;
  const PROTOCOL_ERROR = 2;
  const payload = Buffer.concat([
    Buffer.from([SSH_MSG_DISCONNECT]),
    u32(PROTOCOL_ERROR),
    u32(text.length),
    text,
    u32(0), // no language tag
  ]);
  // At least 4 bytes of padding, the whole packet a multiple of 8 (no cipher yet).
  let padding = 8 - ((4 + 1 + payload.length) % 8);
  if (padding < 4) padding += 8;
  return Buffer.concat([
    u32(1 + payload.length + padding),
    Buffer.from([padding]),
    payload,
    Buffer.alloc(padding),
  ]);
}
