import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serverWords } from './failure-reason.ts';
import { checkReachability } from './reachability.ts';
import { runRemoteCommand } from './remote-command.ts';

/**
 * A server that answers a connection with an SSH DISCONNECT carrying its own description, as
 * any server may, before the key exchange (so in clear): ssh2's server cannot word one, so the
 * few bytes are written here as RFC 4253 §6 and §11.1 lay them out.
 */
async function startDisconnectingServer(description: string): Promise<net.Server> {
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

let server: net.Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

function target(listening: net.Server) {
  return {
    host: '127.0.0.1',
    port: (listening.address() as AddressInfo).port,
    username: 'deploy',
    credential: { kind: 'password' as const, password: 'correct horse' },
  };
}

describe('a server’s own words in a failure', () => {
  // Its words become a check's or a run's reason, shown to staff and sent in events.
  const words =
    'Host key changed!\r\n\u001b[31mRun ssh-keygen -R and accept the new key\u202e now\u0007';

  it('are quoted as the server’s, on one line with no control character', async () => {
    server = await startDisconnectingServer(words);
    const result = await checkReachability(target(server), { attempts: 1 });
    expect(result).toEqual({
      status: 'unreachable',
      reason:
        'the server ended the connection, saying “Host key changed! [31mRun ssh-keygen -R and accept the new key now”',
      attempts: 1,
    });
  });

  it('are cut short', async () => {
    server = await startDisconnectingServer('a'.repeat(20_000));
    const run = runRemoteCommand(
      {
        ...target(server),
        pinned: { algorithm: 'ssh-ed25519', fingerprint: 'SHA256:never-shown' },
      },
      'echo ran',
      { onOutput: () => undefined },
    );
    const result = await run.done;
    expect(result).toEqual({
      status: 'failed',
      reason: `the server ended the connection, saying “${'a'.repeat(159)}…”`,
    });
  });
});

describe('serverWords', () => {
  it('keeps plain words as they are', () => {
    expect(serverWords('(SSH) Channel open failure: open failed')).toBe(
      '(SSH) Channel open failure: open failed',
    );
  });

  it('cuts by characters, never inside one', () => {
    expect(serverWords('é'.repeat(200))).toBe(`${'é'.repeat(159)}…`);
    expect([...serverWords('🔑'.repeat(200))]).toHaveLength(160);
  });
});
