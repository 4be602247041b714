import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shellGate } from '#server/testing/shell-gate.ts';
import {
  startPasswordSshServer,
  type PasswordSshServer,
} from '#server/testing/ssh-password-server.ts';
import { sshKeygen, startSshd, type Sshd } from '#server/testing/sshd.ts';
import type { HostKey } from './host-key.ts';
import { runRemoteCommand, type RemoteTarget } from './remote-command.ts';

/** Commands run on Debian's OpenSSH server on 127.0.0.1, as the account running the tests. */
let sshd: Sshd;
let keyDir: string;
let privateKey = '';
let lockedKey = '';
let pinned: HostKey;

beforeAll(async () => {
  keyDir = await mkdtemp(path.join(os.tmpdir(), 'cm-remote-keys-'));
  const file = path.join(keyDir, 'id');
  await sshKeygen(file, { comment: 'remote-command test' });
  privateKey = await readFile(file, 'utf8');
  const locked = path.join(keyDir, 'locked');
  await sshKeygen(locked, { passphrase: 'open sesame', kdfRounds: 8 });
  lockedKey = await readFile(locked, 'utf8');
  const publicKeys = await Promise.all([file, locked].map((f) => readFile(`${f}.pub`, 'utf8')));
  sshd = await startSshd(publicKeys.map((line) => line.trim()));
  pinned = await sshd.hostKey();
});
afterAll(async () => {
  await sshd?.close();
  if (keyDir) await rm(keyDir, { recursive: true, force: true });
});

function target(overrides: Partial<RemoteTarget> = {}): RemoteTarget {
  return {
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    credential: { kind: 'ssh-key', privateKey },
    pinned,
    ...overrides,
  };
}

/** Signs in to the ssh2 password server of a test (which tells what it does with a command). */
function passwordTarget(server: PasswordSshServer): RemoteTarget {
  return {
    host: server.host,
    port: server.port,
    username: 'deploy',
    credential: { kind: 'password', password: 'correct horse' },
    pinned: server.hostKey,
  };
}

/** The key protected by a passphrase, with it. */
function locked(): RemoteTarget['credential'] {
  return { kind: 'ssh-key', privateKey: lockedKey, passphrase: 'open sesame' };
}

function collect() {
  const pieces: { stream: 'out' | 'err'; text: string }[] = [];
  return {
    pieces,
    onOutput: (stream: 'out' | 'err', chunk: Buffer) =>
      pieces.push({ stream, text: chunk.toString('utf8') }),
    text: (stream: 'out' | 'err') =>
      pieces
        .filter((p) => p.stream === stream)
        .map((p) => p.text)
        .join(''),
  };
}

describe('runRemoteCommand (real sshd)', () => {
  it('streams stdout and stderr apart and ends with the exit code', async () => {
    const output = collect();
    // 'three' only once 'two' has arrived: the two pipes are read apart, so only that makes
    // the order certain.
    const afterErr = shellGate(keyDir, 'after-err');
    const run = runRemoteCommand(
      target(),
      `echo one; echo two >&2; ${afterErr.wait}; echo three; exit 3`,
      output,
    );
    await vi.waitFor(() => expect(output.text('err')).toBe('two\n'), { timeout: 30_000 });
    await afterErr.open();
    expect(await run.done).toEqual({ status: 'exited', exitCode: 3, signal: null });
    expect(output.text('out')).toBe('one\nthree\n');
    expect(output.text('err')).toBe('two\n');
    // 'three' came after the gate, so after 'two'.
    const order = output.pieces.map((p) => p.text.trim()).filter(Boolean);
    expect(order.indexOf('two')).toBeLessThan(order.indexOf('three'));
  });

  it('runs with a key protected by a passphrase', async () => {
    const output = collect();
    const run = runRemoteCommand(target({ credential: locked() }), 'echo opened', output);
    expect(await run.done).toEqual({ status: 'exited', exitCode: 0, signal: null });
    expect(output.text('out')).toBe('opened\n');
  });

  it('cancelled while its key is being opened, it never connects', async () => {
    const output = collect();
    const run = runRemoteCommand(target({ credential: locked() }), 'echo ran', {
      ...output,
      onStarted: () => output.pieces.push({ stream: 'out', text: 'started' }),
    });
    run.cancel();
    expect(await run.done).toEqual({
      status: 'failed',
      reason: 'cancelled before the command started',
    });
    expect(output.pieces).toEqual([]);
  });

  it('refuses a host key that is not the pinned one, before signing in', async () => {
    const other: HostKey = { algorithm: 'ssh-ed25519', fingerprint: 'SHA256:notthepinnedkey' };
    const output = collect();
    const result = await runRemoteCommand(target({ pinned: other }), 'echo ran', output).done;
    expect(result).toEqual({
      status: 'failed',
      reason: `host key changed: the server offered ${pinned.algorithm} ${pinned.fingerprint}, not the pinned ssh-ed25519 SHA256:notthepinnedkey`,
    });
    expect(output.pieces).toEqual([]);
  });

  it('names a refused login without the credential', async () => {
    const result = await runRemoteCommand(
      target({ credential: { kind: 'password', password: 'not-a-password-sshd-takes' } }),
      'echo ran',
      collect(),
    ).done;
    expect(result).toEqual({ status: 'failed', reason: 'authentication failed' });
  });

  // OpenSSH signals a session only under privilege separation, which a root login (the test
  // machine's) goes without: then both graces run out and the connection is closed.
  it('cancel sends TERM, then closes the connection after the grace', async () => {
    const output = collect();
    let cancelAt = 0;
    const run = runRemoteCommand(
      target(),
      'echo started; sleep 30; echo never',
      {
        onOutput(stream, chunk) {
          output.onOutput(stream, chunk);
          if (chunk.toString().includes('started')) {
            cancelAt = Date.now();
            run.cancel();
          }
        },
      },
      { cancelGraceMs: 500 },
    );
    const result = await run.done;
    if (process.getuid?.() === 0) {
      expect(result).toEqual({
        status: 'failed',
        reason:
          'the command did not end within 0.5 s of TERM, nor of KILL: the connection was closed, and the command may still be running on the server',
      });
    } else {
      expect(result).toEqual({ status: 'exited', exitCode: null, signal: 'SIGTERM' });
    }
    expect(output.text('out')).toBe('started\n');
    // Ended by the signal (or the grace's close), not by the 30 s sleep: a fence against waiting
    // for the command, wide enough for a loaded machine.
    expect(Date.now() - cancelAt).toBeLessThan(15_000);
  });

  it('cancel sends KILL when the command outlives TERM, and ends with it', async () => {
    // OpenSSH passes a non-root session's signals to its process group; the ssh2 server stands
    // in for a command that ignores TERM, which the test machine's root login cannot show.
    const server = await startPasswordSshServer({ username: 'deploy', password: 'correct horse' });
    const signals: string[] = [];
    server.commands = {
      started: (channel) => channel.write('started\n'),
      signalled(name, channel) {
        signals.push(name);
        if (name !== 'KILL') return;
        channel.exit('KILL');
        channel.end();
      },
    };
    try {
      const run = runRemoteCommand(
        passwordTarget(server),
        'trap "" TERM; echo started; sleep 30',
        {
          onOutput: (_stream, chunk) => {
            if (chunk.toString().includes('started')) run.cancel();
          },
        },
        // Long enough for the KILL's exit to come back on a loaded machine.
        { cancelGraceMs: 1_500 },
      );
      expect(await run.done).toEqual({ status: 'exited', exitCode: null, signal: 'SIGKILL' });
      expect(signals).toEqual(['TERM', 'KILL']);
    } finally {
      server.close();
    }
  });

  it('ends with the exit code when a background process keeps its output open', async () => {
    // The background step holds the output open until the test opens the gate, which it does
    // only once the run has ended: a run that waited for the output to close would outlast it.
    const go = shellGate(keyDir, 'background-go');
    const output = collect();
    const run = runRemoteCommand(
      target(),
      `(${go.wait}; echo too late) & echo left it running`,
      output,
      { cancelGraceMs: 300 },
    );
    try {
      expect(await run.done).toEqual({ status: 'exited', exitCode: 0, signal: null });
      expect(output.text('out')).toBe('left it running\n');
    } finally {
      await go.open();
    }
  });

  it('keeps output that goes on arriving after the exit status, until it goes quiet', async () => {
    // sshd sends the exit status when the command exits, while output it has not sent yet may
    // still be in its buffers; a busy server or a full window delays it past the grace.
    const server = await startPasswordSshServer({ username: 'deploy', password: 'correct horse' });
    const PIECES = 30;
    server.commands = {
      started(channel) {
        channel.write('exiting\n');
        channel.exit(0);
        let sent = 0;
        const drain = setInterval(() => {
          sent += 1;
          channel.write(`line ${sent}\n`);
          if (sent < PIECES) return;
          clearInterval(drain);
          channel.end();
        }, 25);
      },
      signalled: () => undefined,
    };
    try {
      const output = collect();
      // Quiet means 2 s without output, far above the 25 ms between pieces: a stalled test
      // process (both timers due at once when it resumes) does not end it early.
      const run = runRemoteCommand(passwordTarget(server), 'deploy', output, {
        cancelGraceMs: 2_000,
      });
      expect(await run.done).toEqual({ status: 'exited', exitCode: 0, signal: null });
      const lines = Array.from({ length: PIECES }, (_, i) => `line ${i + 1}\n`);
      expect(output.text('out')).toBe(`exiting\n${lines.join('')}`);
    } finally {
      server.close();
    }
  });

  it('fails when a server lets it in and never starts the command', async () => {
    // A real SSH server (ssh2's) that signs the run in and leaves its session unanswered: left
    // waiting, the run would hold its app's deploys until someone cancelled it.
    const server = await startPasswordSshServer({ username: 'deploy', password: 'correct horse' });
    server.sessionsUnanswered = true;
    try {
      let started = false;
      const run = runRemoteCommand(
        passwordTarget(server),
        'echo ran',
        { onOutput: () => undefined, onStarted: () => (started = true) },
        // Also the bound of the login, which a loaded machine can make slow.
        { timeoutMs: 3_000 },
      );
      expect(await run.done).toEqual({
        status: 'failed',
        reason: 'the server did not start the command within 3 s of signing in',
      });
      expect(started).toBe(false);
    } finally {
      server.close();
    }
  });

  it('fails with a reason when nothing listens', async () => {
    const result = await runRemoteCommand(target({ port: 9 }), 'echo ran', collect()).done;
    expect(result).toEqual({ status: 'failed', reason: 'connection refused' });
  });
});
