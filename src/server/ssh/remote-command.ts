import type { ClientChannel, ConnectConfig } from 'ssh2';
import { credentialAuth, unusableCredential, type SshCredential } from './credential-auth.ts';
import {
  connectionFailure,
  exitSignalName,
  formatSeconds,
  refusedCommand,
  type SshError,
} from './failure-reason.ts';
import { hostKeyOf, pinnedKeyAlgorithms, sameHostKey, type HostKey } from './host-key.ts';
import { closeConnection, ssh2 } from './ssh2.ts';

export interface RemoteTarget {
  host: string;
  port: number;
  username: string;
  credential: SshCredential;
  /** The server's pinned host key: any other key is refused before authenticating. */
  pinned: HostKey;
}

/** How the remote command ended, or why it could not run (or went away) on the way. */
export type RemoteResult =
  | { status: 'exited'; exitCode: number | null; signal: string | null }
  | { status: 'failed'; reason: string };

export interface RemoteCommandOptions {
  /**
   * How long the SSH handshake and login may take, and then again how long the server may
   * take to start the command.
   */
  timeoutMs?: number;
  /**
   * After a cancel's TERM, how long the command has to end before it is sent KILL, and after
   * that before the channel is closed.
   */
  cancelGraceMs?: number;
}

export interface RemoteHandlers {
  /** A chunk of the command's output as it arrives, stdout and stderr in the order read. */
  onOutput(stream: 'out' | 'err', chunk: Buffer): void;
  /** The command has started on the server (the channel is open). */
  onStarted?(): void;
}

export interface RemoteCommand {
  /** Settles once, when the command has ended or the connection failed. */
  readonly done: Promise<RemoteResult>;
  /**
   * Sends TERM to the command (OpenSSH signals its whole process group), KILL after the grace,
   * and closes the channel and the connection after another, or at once when it had not
   * started or has ended already.
   */
  cancel(): void;
}

const DEFAULTS = { timeoutMs: 10_000, cancelGraceMs: 2_000 } as const;

/**
 * Runs one command on a server over SSH (`exec`, no terminal: stdout and stderr stay apart)
 * and streams its output. The host key must be the pinned one: a different key ends the
 * attempt before any credential is offered. Nothing here logs; failure reasons are ssh2's or
 * ours, and never carry the credential.
 */
export function runRemoteCommand(
  target: RemoteTarget,
  command: string,
  handlers: RemoteHandlers,
  options: RemoteCommandOptions = {},
): RemoteCommand {
  const { timeoutMs, cancelGraceMs } = { ...DEFAULTS, ...options };
  const client = new (ssh2().Client)();
  let channel: ClientChannel | undefined;
  let exit: { exitCode: number | null; signal: string | null } | undefined;
  let cancelled = false;
  let graceTimer: NodeJS.Timeout | undefined;
  /** From the exit status on: settles once the output has been quiet for the grace. */
  let quietTimer: NodeJS.Timeout | undefined;
  let startTimer: NodeJS.Timeout | undefined;
  let settle!: (result: RemoteResult) => void;
  let settled = false;

  const done = new Promise<RemoteResult>((resolve) => {
    settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(graceTimer);
      clearTimeout(quietTimer);
      clearTimeout(startTimer);
      client.removeAllListeners();
      // A late error from the socket being torn down must not become an unhandled event.
      client.on('error', () => undefined);
      closeConnection(client);
      resolve(result);
    };
  });

  const config: ConnectConfig = {
    host: target.host,
    port: target.port,
    username: target.username,
    readyTimeout: timeoutMs,
    // No agent, no keyboard prompts: only the server's own credential.
    tryKeyboard: false,
    // Keeps a connection that a NAT or firewall dropped from hanging the run for ever.
    keepaliveInterval: 15_000,
    keepaliveCountMax: 4,
    algorithms: { serverHostKey: pinnedKeyAlgorithms(target.pinned) },
    hostVerifier: (blob: Buffer) => {
      const offered = hostKeyOf(blob);
      if (sameHostKey(offered, target.pinned)) return true;
      settle({
        status: 'failed',
        reason: `host key changed: the server offered ${describeKey(offered)}, not the pinned ${describeKey(target.pinned)}`,
      });
      return false;
    },
  };

  client.on('ready', () => {
    if (cancelled) {
      settle({ status: 'failed', reason: 'cancelled before the command started' });
      return;
    }
    // A server that signs in and never answers the request to run would hold the run (and the
    // app's next deploys) until someone cancelled it; keepalives do not end it, since the
    // server still answers those.
    startTimer = setTimeout(() => {
      settle({
        status: 'failed',
        reason: `the server did not start the command within ${formatSeconds(timeoutMs)} of signing in`,
      });
    }, timeoutMs);
    startTimer.unref();
    client.exec(command, (error, opened) => {
      clearTimeout(startTimer);
      if (settled) {
        opened?.close();
        return;
      }
      if (error) {
        settle({ status: 'failed', reason: refusedCommand(error) });
        return;
      }
      channel = opened;
      handlers.onStarted?.();
      opened.on('data', (chunk: Buffer) => {
        quietTimer?.refresh();
        handlers.onOutput('out', chunk);
      });
      opened.stderr.on('data', (chunk: Buffer) => {
        quietTimer?.refresh();
        handlers.onOutput('err', chunk);
      });
      opened.on('exit', (code: number | null, signal?: string) => {
        const ended = {
          exitCode: typeof code === 'number' ? code : null,
          signal: exitSignalName(signal),
        };
        exit = ended;
        // A cancel's signal has done its work: no KILL, no closing as if it had not.
        clearTimeout(graceTimer);
        // A process the command left in the background may hold its output open, and the
        // server closes the channel only once that output ends: the command itself is done
        // once its output has been quiet for the grace. Output still arriving is kept: the
        // server sends the exit status when the command exits, and what it printed last may
        // still be on its way (a busy server, a full window).
        quietTimer = setTimeout(() => settle({ status: 'exited', ...ended }), cancelGraceMs);
        quietTimer.unref();
      });
      opened.on('close', () => {
        if (exit) settle({ status: 'exited', ...exit });
        else settle({ status: 'failed', reason: 'the connection closed before the command ended' });
      });
      if (cancelled) cancelChannel(opened);
    });
  });
  client.on('error', (error: SshError) =>
    settle({ status: 'failed', reason: connectionFailure(error, timeoutMs) }),
  );
  client.on('close', () => {
    if (exit) settle({ status: 'exited', ...exit });
    else settle({ status: 'failed', reason: 'the server closed the connection' });
  });

  function cancelChannel(open: ClientChannel): void {
    if (exit) {
      open.close();
      settle({ status: 'exited', ...exit });
      return;
    }
    signal(open, 'TERM');
    // A command may ignore TERM: after the grace it gets KILL, which it cannot. OpenSSH refuses
    // both to a root login's session (no privilege separation there): after a second grace the
    // channel and the connection are closed, and the command loses its output (SIGPIPE at its
    // next write) but may run on.
    graceTimer = setTimeout(() => {
      signal(open, 'KILL');
      graceTimer = setTimeout(() => {
        open.close();
        settle({
          status: 'failed',
          reason: `the command did not end within ${formatSeconds(cancelGraceMs)} of TERM, nor of KILL: the connection was closed, and the command may still be running on the server`,
        });
      }, cancelGraceMs);
      graceTimer.unref();
    }, cancelGraceMs);
    graceTimer.unref();
  }

  const connect = (auth: Partial<ConnectConfig>) => {
    // Cancelled while the key was being opened.
    if (settled) return;
    try {
      client.connect({ ...config, ...auth });
    } catch (error) {
      // ssh2 throws at once for a key it cannot read.
      couldNotUse(error);
    }
  };
  const couldNotUse = (error: unknown) =>
    settle({ status: 'failed', reason: unusableCredential(error) });
  credentialAuth(target.credential).then(connect, couldNotUse);

  return {
    done,
    cancel() {
      if (settled || cancelled) return;
      cancelled = true;
      if (channel) cancelChannel(channel);
      // Not connected yet: the 'ready' handler ends it; a handshake that hangs ends here.
      else settle({ status: 'failed', reason: 'cancelled before the command started' });
    },
  };
}

function signal(channel: ClientChannel, name: 'TERM' | 'KILL'): void {
  try {
    channel.signal(name);
  } catch {
    // The channel is closing already.
  }
}

function describeKey(key: HostKey): string {
  return `${key.algorithm} ${key.fingerprint}`;
}
