import { setTimeout as delay } from 'node:timers/promises';
import type { ConnectConfig } from 'ssh2';
import { credentialAuth, unusableCredential, type SshCredential } from './credential-auth.ts';
import { connectionFailure, type SshError } from './failure-reason.ts';
import { hostKeyOf, pinnedKeyAlgorithms, sameHostKey, type HostKey } from './host-key.ts';
import { closeConnection, ssh2 } from './ssh2.ts';

export interface CheckTarget {
  host: string;
  port: number;
  username: string;
  /** Without one, a check only reads the host key. */
  credential?: SshCredential;
  /** The host key pinned at the first check; a different one blocks authentication. */
  pinned?: HostKey;
}

export type CheckResult =
  | { status: 'reachable'; hostKey: HostKey; authenticated: boolean; attempts: number }
  | { status: 'unreachable'; reason: string; attempts: number }
  | { status: 'host-key-changed'; hostKey: HostKey; pinned: HostKey; attempts: number };

export interface CheckOptions {
  /** How long one attempt may wait for the SSH handshake. */
  timeoutMs?: number;
  attempts?: number;
  /** The wait before the second attempt; it doubles after each failure. */
  retryDelayMs?: number;
  /** Stops the check (the app is closing): it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

const DEFAULTS = { timeoutMs: 10_000, attempts: 3, retryDelayMs: 2_000 } as const;

type Attempt =
  | { kind: 'reachable'; hostKey: HostKey; authenticated: boolean }
  | { kind: 'host-key-changed'; hostKey: HostKey; pinned: HostKey }
  | { kind: 'failed'; reason: string; final: boolean }
  | { kind: 'stopped' };

/**
 * Opens an SSH connection, reads the host key and, with a credential, authenticates; then
 * closes without running anything. A refused or silent connection is tried again (a server
 * restarting or a lost packet is not an outage); a wrong credential or a changed host key is
 * an answer, not a hiccup, and is not retried: retrying a failed login only looks like an attack.
 */
export async function checkReachability(
  target: CheckTarget,
  options: CheckOptions = {},
): Promise<CheckResult> {
  const { timeoutMs, attempts, retryDelayMs } = { ...DEFAULTS, ...options };
  const { signal } = options;
  let auth: Partial<ConnectConfig> = {};
  try {
    if (target.credential) auth = await credentialAuth(target.credential);
  } catch (error) {
    return { status: 'unreachable', reason: unusableCredential(error), attempts: 1 };
  }
  let wait = retryDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    let result = await attemptOnce(target, auth, timeoutMs, signal);
    // The server offers no key of the pinned type: its key changed type. Asked again for any
    // type, it shows which key it has now, and the check says the key changed, with it.
    if (result.kind === 'failed' && target.pinned && NO_KEY_OF_PINNED_TYPE.test(result.reason)) {
      result = await attemptOnce(target, auth, timeoutMs, signal, false);
    }
    if (result.kind === 'stopped') {
      signal?.throwIfAborted();
      throw new Error('the check was stopped');
    }
    if (result.kind === 'reachable')
      return { status: 'reachable', ...withoutKind(result), attempts: attempt };
    if (result.kind === 'host-key-changed') {
      return { status: 'host-key-changed', ...withoutKind(result), attempts: attempt };
    }
    if (result.final || attempt >= attempts) {
      return { status: 'unreachable', reason: result.reason, attempts: attempt };
    }
    await delay(wait, undefined, { signal });
    wait *= 2;
  }
}

function withoutKind<T extends { kind: string }>({ kind, ...rest }: T): Omit<T, 'kind'> {
  void kind;
  return rest;
}

/** ssh2's words when no host-key type the check asked for is one the server has. */
const NO_KEY_OF_PINNED_TYPE = /no matching host key format/;

function attemptOnce(
  target: CheckTarget,
  auth: Partial<ConnectConfig>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  pinnedTypeOnly = true,
): Promise<Attempt> {
  return new Promise((resolve) => {
    const client = new (ssh2().Client)();
    let seen: HostKey | undefined;
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      client.removeAllListeners();
      // A late error from the socket being torn down must not become an unhandled event.
      client.on('error', () => undefined);
      closeConnection(client);
      resolve(attempt);
    };
    const stop = () => settle({ kind: 'stopped' });
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.username,
      readyTimeout: timeoutMs,
      // No agent, no keyboard prompts: only the credential given here.
      tryKeyboard: false,
      ...(target.pinned && pinnedTypeOnly
        ? { algorithms: { serverHostKey: pinnedKeyAlgorithms(target.pinned) } }
        : {}),
      hostVerifier: (blob: Buffer) => {
        seen = hostKeyOf(blob);
        if (target.pinned && !sameHostKey(seen, target.pinned)) {
          settle({ kind: 'host-key-changed', hostKey: seen, pinned: target.pinned });
          return false;
        }
        return true;
      },
      ...auth,
    };
    // ssh2 asks the verifier before it checks the server's signature of the key exchange: a
    // server may show a key it does not hold. The handshake ends only once that signature is
    // checked, so a check without a credential waits for it before calling the key the server's.
    client.on('handshake', () => {
      if (!target.credential && seen) {
        settle({ kind: 'reachable', hostKey: seen, authenticated: false });
      }
    });
    client.on('ready', () => {
      if (seen) settle({ kind: 'reachable', hostKey: seen, authenticated: true });
      else settle({ kind: 'failed', reason: 'the server sent no host key', final: true });
    });
    client.on('error', (error: SshError) => settle(failure(error, timeoutMs)));
    client.on('close', () =>
      settle({ kind: 'failed', reason: 'the server closed the connection', final: false }),
    );
    signal?.addEventListener('abort', stop, { once: true });
    try {
      client.connect(config);
    } catch (error) {
      // ssh2 throws at once for a key it cannot read.
      settle({
        kind: 'failed',
        reason: unusableCredential(error),
        final: true,
      });
    }
  });
}

function failure(error: SshError, timeoutMs: number): Attempt {
  const reason = connectionFailure(error, timeoutMs);
  return { kind: 'failed', reason, final: error.level === 'client-authentication' };
}
