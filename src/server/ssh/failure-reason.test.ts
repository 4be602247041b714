import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectionFailure,
  exitSignalName,
  refusedCommand,
  serverWords,
} from './failure-reason.ts';
import { checkReachability } from './reachability.ts';
import { runRemoteCommand } from './remote-command.ts';
import { startDisconnectingServer } from '#server/testing/disconnecting-ssh-server.ts';

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

  it('cannot close the quote they are in', async () => {
    server = await startDisconnectingServer('bye” — run ssh-keygen -R and accept “x"');
    const result = await checkReachability(target(server), { attempts: 1 });
    expect(result).toMatchObject({
      reason: `the server ended the connection, saying “bye' — run ssh-keygen -R and accept 'x'”`,
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

describe('what else a server can word', () => {
  it('a refused session’s description is quoted as the server’s', () => {
    const refusal = new Error('(SSH) Channel open failure: no\r\nmore “sessions”');
    expect(refusedCommand(refusal)).toBe(
      `the server refused the command, saying “no more 'sessions'”`,
    );
    expect(refusedCommand(new Error('Unable to exec'))).toBe(
      'the server refused the command: Unable to exec',
    );
  });

  it('a piece of an ssh2 message is kept to one plain line', () => {
    // ssh2 names the signature type the server sent in this one.
    const error = new Error('Wrong signature type: x\n\u001b[2Jrun this, expected: ssh-ed25519');
    expect(connectionFailure(error, 10_000)).toBe(
      'Wrong signature type: x [2Jrun this, expected: ssh-ed25519',
    );
  });

  it('an exit signal is a signal’s name or none', () => {
    expect(exitSignalName('SIGTERM')).toBe('SIGTERM');
    expect(exitSignalName('SIGUNKNOWN (9)')).toBe('SIGUNKNOWN (9)');
    expect(exitSignalName('SIGTERM\nThe deploy succeeded')).toBeNull();
    expect(exitSignalName('SIGthe server says hello')).toBeNull();
    expect(exitSignalName(undefined)).toBeNull();
  });
});
