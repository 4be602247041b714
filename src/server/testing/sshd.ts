import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { serverPort } from './free-port.ts';
import { listensOn } from './listens-on.ts';

const run = promisify(execFile);
const SSHD = process.env.SSHD_PATH ?? '/usr/sbin/sshd';

export interface Sshd {
  host: string;
  port: number;
  /** The account it lets in: whoever runs the tests. */
  username: string;
  /** `ssh-ed25519 SHA256:…` of its current host key, as `ssh-keygen -lf` prints it. */
  hostKey(): Promise<{ algorithm: string; fingerprint: string }>;
  /** Stops, takes a new host key and starts again on the same port. */
  changeHostKey(): Promise<void>;
  close(): Promise<void>;
}

export interface KeyFileOptions {
  type?: 'ed25519' | 'rsa' | 'ecdsa';
  /** RSA in the older PEM format instead of OpenSSH's own. */
  pem?: boolean;
  passphrase?: string;
  /**
   * Rounds of the key derivation that guards an OpenSSH-format key's passphrase (`-a`; OpenSSH's
   * default is 16). The key's owner chooses them; a test that reads one key many times can take
   * fewer: each read runs them in JavaScript (ssh2's bcrypt), on the event loop.
   */
  kdfRounds?: number;
  comment?: string;
}

/** A key pair written by OpenSSH's `ssh-keygen`, as a person would make one: `file`, `file.pub`. */
export async function sshKeygen(file: string, options: KeyFileOptions = {}): Promise<void> {
  const { type = 'ed25519', pem = false, passphrase = '', kdfRounds, comment } = options;
  await run('ssh-keygen', [
    ...['-q', '-t', type, '-N', passphrase, '-f', file],
    ...(type === 'rsa' ? ['-b', '2048'] : []),
    ...(pem ? ['-m', 'PEM'] : []),
    ...(kdfRounds === undefined ? [] : ['-a', String(kdfRounds)]),
    ...(comment === undefined ? [] : ['-C', comment]),
  ]);
}

/** The text of a private key made by `ssh-keygen` with `options`, its files removed again. */
export async function sshKeyText(options: KeyFileOptions = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-key-text-'));
  try {
    await sshKeygen(path.join(dir, 'key'), options);
    return await readFile(path.join(dir, 'key'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * An OpenSSH-format private key with the bcrypt rounds in its kdfoptions set to `rounds`, as
 * anyone can edit them: nothing the passphrase checks covers that field. The key still opens
 * with its passphrase only at the new count, which for a huge one is never.
 */
export function withKdfRounds(key: string, rounds: number): string {
  const body = key.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const data = Buffer.from(body, 'base64');
  let at = 'openssh-key-v1\0'.length;
  for (const _field of ['cipher', 'kdf']) at += 4 + data.readUInt32BE(at);
  const saltLength = data.readUInt32BE(at + 4);
  data.writeUInt32BE(rounds, at + 4 + 4 + saltLength);
  const lines = data
    .toString('base64')
    .match(/.{1,70}/g)!
    .join('\n');
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/**
 * Debian's OpenSSH server on 127.0.0.1, with its own config, host key, `authorized_keys` and pid
 * file in a temp folder. Only the listed public keys get in; passwords are off (a password test
 * uses an ssh2 server in the test instead, as OpenSSH checks passwords against the system's).
 */
export async function startSshd(authorizedKeys: string[]): Promise<Sshd> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-sshd-'));
  const username = os.userInfo().username;
  // sshd is a process of its own that listens a moment later, with no second try.
  const port = await serverPort();
  const hostKeyFile = path.join(dir, 'host_ed25519');
  // sshd started by root wants its privilege-separation folder, which a service manager makes.
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  await writeFile(path.join(dir, 'authorized_keys'), `${authorizedKeys.join('\n')}\n`, {
    mode: 0o600,
  });
  await writeFile(
    path.join(dir, 'sshd_config'),
    [
      `ListenAddress 127.0.0.1`,
      `Port ${port}`,
      `HostKey ${hostKeyFile}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${username}`,
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );

  let child: ChildProcess | undefined;
  const newHostKey = async () => {
    await rm(hostKeyFile, { force: true });
    await rm(`${hostKeyFile}.pub`, { force: true });
    await sshKeygen(hostKeyFile);
  };
  const start = async () => {
    const started = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    started.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child = started;
    await waitForListening(port, started, () => log);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };

  await newHostKey();
  await start();
  return {
    host: '127.0.0.1',
    port,
    username,
    async hostKey() {
      // OpenSSH's own reading of the key, to compare ours with: "256 SHA256:… comment (ED25519)".
      const { stdout } = await run('ssh-keygen', ['-l', '-f', `${hostKeyFile}.pub`]);
      const algorithm = (await readFile(`${hostKeyFile}.pub`, 'utf8')).split(' ')[0] ?? '';
      return { algorithm, fingerprint: stdout.split(' ')[1] ?? '' };
    },
    async changeHostKey() {
      await stop();
      await newHostKey();
      await start();
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ready when the port takes a connection and sends OpenSSH's banner and this sshd holds the
 * port (another test's sshd may have taken it since it was picked); fails if sshd exits.
 */
async function waitForListening(
  port: number,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`sshd exited with ${child.exitCode}: ${log().trim()}`);
    }
    if ((await bannerFrom(port)) && listensOn(child.pid!, port)) return;
    await delay(50);
  }
  throw new Error(`sshd did not answer on port ${port} within 15 s: ${log().trim()}`);
}

function bannerFrom(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString('latin1').startsWith('SSH-2.0-'));
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
