import { createRequire } from 'node:module';
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
 * The worker's whole program, run from its source (`eval`): the server is one bundle, so there is
 * no worker file to point at. It reaches everything through `process`, since the source runs
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
 * request, and no thread or opened key is kept in between. Rejects with ssh2's reason, which
 * never quotes the key or the passphrase, or with NotAPrivateKey.
 */
export function openLockedKey(text: string, passphrase: string): Promise<OpenedKey> {
  const input: WorkerInput = {
    ssh2Path: createRequire(import.meta.url).resolve('ssh2'),
    text,
    passphrase,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input });
    worker.once('message', (output: WorkerOutput) => {
      if ('refused' in output) reject(new Error(output.refused));
      else if ('publicOnly' in output) reject(new NotAPrivateKey('This is a public key'));
      else resolve({ ...output.opened, publicSSH: Buffer.from(output.opened.publicSSH) });
    });
    worker.once('error', reject);
    // After a message this changes nothing; without one the worker died before answering.
    worker.once('exit', (code) => reject(new Error(`the key's worker ended (code ${code})`)));
  });
}
