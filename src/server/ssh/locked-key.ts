import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type ssh2Module from 'ssh2';

/** A key that was protected by a passphrase, opened: what signing with it needs. */
export interface OpenedKey {
  /** The key's SSH type: `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`… */
  type: string;
  /** The public key in SSH's wire format. */
  publicSSH: Buffer;
  /** The private key in PEM, no longer encrypted, as Node's crypto reads it. */
  privatePEM: string;
  comment: string;
}

/** The text was a public key (a `.pub` file pasted), which no passphrase opens. */
export class NotAPrivateKey extends Error {}

/**
 * The most bcrypt rounds an OpenSSH key's passphrase may take here. The rounds are the key
 * file's own field, not covered by anything the passphrase checks, and ssh-keygen's `-a` takes up
 * to 2^31 - 1: a key edited to billions would keep a worker on a core for days. OpenSSH's default
 * is 16 and the usual advice 100; ssh2 derives about 60 rounds a second, so the limit opens in
 * some 17 s, and OpenSSH itself needs about 9 s for it at every use, which nobody keeps.
 */
export const MAX_KDF_ROUNDS = 1000;

/** The key's passphrase takes more bcrypt rounds than MAX_KDF_ROUNDS: it is not opened. */
export class TooManyKdfRounds extends Error {
  readonly rounds: number;
  constructor(rounds: number) {
    super(`the key's passphrase takes ${rounds} bcrypt rounds, more than ${MAX_KDF_ROUNDS}`);
    this.rounds = rounds;
  }
}

/** The worker did not answer within its time and was ended. */
export class KeyOpenTimedOut extends Error {
  readonly limitMs: number;
  constructor(limitMs: number) {
    super(`opening the key with its passphrase took more than ${Math.round(limitMs / 1000)} s`);
    this.limitMs = limitMs;
  }
}

/**
 * How long a worker may take to open a key before it is ended: a backstop for whatever input
 * still makes ssh2 run on, well above a MAX_KDF_ROUNDS key on a busy machine.
 */
export const OPEN_TIME_LIMIT_MS = 120_000;

/** Too many keys are waiting to be opened: this one is not. */
export class KeyOpenBusy extends Error {
  constructor() {
    super('too many keys are being opened at once');
  }
}

/**
 * Each key is opened on a thread with a heap of its own, on a core for up to
 * OPEN_TIME_LIMIT_MS: as many at once as requests arrive (a save, an import's dry run, a check,
 * a deploy) would take every core and the machine's memory. So these many are opened at once,
 * as many as there are cores, and up to KEYS_WAITING_AT_MOST more wait their turn in order;
 * beyond that an open is refused with KeyOpenBusy.
 */
export const KEYS_OPENED_AT_ONCE = Math.max(1, availableParallelism());
export const KEYS_WAITING_AT_MOST = 32;

let keysOpening = 0;
const waitingTurns: (() => void)[] = [];

/** Resolves when a key may be opened; the caller gives the turn back with endTurn. */
function takeTurn(): Promise<void> {
  if (keysOpening < KEYS_OPENED_AT_ONCE) {
    keysOpening++;
    return Promise.resolve();
  }
  if (waitingTurns.length >= KEYS_WAITING_AT_MOST) return Promise.reject(new KeyOpenBusy());
  return new Promise((resolve) => waitingTurns.push(resolve));
}

/** The next waiting open takes the turn over, or it is free again. */
function endTurn(): void {
  const next = waitingTurns.shift();
  if (next) next();
  else keysOpening--;
}

const OPENSSH_PRIVATE =
  /^-----BEGIN OPENSSH PRIVATE KEY-----(?:\r\n|\n)([\s\S]+)(?:\r\n|\n)-----END OPENSSH PRIVATE KEY-----$/;

/**
 * The bcrypt rounds an OpenSSH private key's passphrase is derived with, read from its
 * kdfoptions; null for any other text (PEM keys derive theirs in one fast step), and for one
 * that does not read, which ssh2 refuses without deriving anything. The text is trimmed and
 * matched as ssh2 1.17's parseKey does, so both read the same bytes.
 */
export function kdfRounds(text: string): number | null {
  const block = OPENSSH_PRIVATE.exec(text.trim());
  if (block === null) return null;
  const data = Buffer.from(block[1]!, 'base64');
  const magic = 'openssh-key-v1\0';
  if (data.toString('latin1', 0, magic.length) !== magic) return null;
  let at = magic.length;
  const field = (): Buffer | null => {
    if (at + 4 > data.length) return null;
    const length = data.readUInt32BE(at);
    if (at + 4 + length > data.length) return null;
    const value = data.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  if (field() === null) return null; // cipher
  const kdf = field();
  const options = field();
  if (kdf?.toString('latin1') !== 'bcrypt' || options === null) return null;
  // kdfoptions: string salt, uint32 rounds.
  if (options.length < 4) return null;
  const saltLength = options.readUInt32BE(0);
  if (4 + saltLength + 4 > options.length) return null;
  return options.readUInt32BE(4 + saltLength);
}

interface WorkerInput {
  ssh2Path: string;
  text: string;
  passphrase: string;
}

type WorkerOutput =
  | { opened: Omit<OpenedKey, 'publicSSH'> & { publicSSH: Uint8Array } }
  | { refused: string }
  | { publicOnly: true };

/**
 * The worker's whole program, run from its source (`eval`): in the server's bundle there is no
 * worker file to point at. It reaches everything through `process`, since the source runs
 * with nothing of this module around it.
 */
function openInWorker(): void {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const { ssh2Path, text, passphrase } = workerData as WorkerInput;
  const { createRequire: requireFrom } = process.getBuiltinModule('node:module');
  const { utils } = requireFrom(ssh2Path)(ssh2Path) as typeof ssh2Module;
  const parsed = utils.parseKey(text, passphrase);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  let output: WorkerOutput;
  if (key instanceof Error) output = { refused: key.message };
  else if (!key?.isPrivateKey()) output = { publicOnly: true };
  else {
    const { type, comment } = key;
    const opened = {
      type,
      comment,
      publicSSH: key.getPublicSSH(),
      privatePEM: key.getPrivatePEM(),
    };
    output = { opened };
  }
  parentPort?.postMessage(output);
}

const WORKER_SOURCE = `(${openInWorker.toString()})()`;

/**
 * Opens a passphrase-protected private key on a worker thread. ssh2 derives an OpenSSH key's
 * passphrase (bcrypt, as many rounds as the key's owner chose) in JavaScript: about 0.3 s of CPU
 * at OpenSSH's default 16 rounds, seconds at 100, during which the event loop would answer no
 * one. A worker per key, ended once it answers: keys are opened at a check or a run, not per
 * request, and no thread or opened key is kept in between; a few at a time (takeTurn). Rejects
 * with ssh2's reason, which never quotes the key or the passphrase, or with NotAPrivateKey; with
 * TooManyKdfRounds before any worker starts; with KeyOpenBusy when too many wait their turn;
 * with KeyOpenTimedOut once a worker past `timeLimitMs` (from its start) has been ended.
 */
export async function openLockedKey(
  text: string,
  passphrase: string,
  timeLimitMs = OPEN_TIME_LIMIT_MS,
): Promise<OpenedKey> {
  const rounds = kdfRounds(text);
  if (rounds !== null && rounds > MAX_KDF_ROUNDS) throw new TooManyKdfRounds(rounds);
  await takeTurn();
  try {
    return await openOnWorker(text, passphrase, timeLimitMs);
  } finally {
    endTurn();
  }
}

function openOnWorker(text: string, passphrase: string, timeLimitMs: number): Promise<OpenedKey> {
  const input: WorkerInput = {
    ssh2Path: createRequire(import.meta.url).resolve('ssh2'),
    text,
    passphrase,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void worker.terminate();
    }, timeLimitMs);
    worker.once('message', (output: WorkerOutput) => {
      clearTimeout(timer);
      if ('refused' in output) reject(new Error(output.refused));
      else if ('publicOnly' in output) reject(new NotAPrivateKey('This is a public key'));
      else resolve({ ...output.opened, publicSSH: Buffer.from(output.opened.publicSSH) });
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // After a message this changes nothing; without one the worker died before answering, or
    // was ended for its time, and its thread has stopped by now.
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        timedOut
          ? new KeyOpenTimedOut(timeLimitMs)
          : new Error(`the key's worker ended (code ${code})`),
      );
    });
  });
}
