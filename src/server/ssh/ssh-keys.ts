import { hostKeyOf, type HostKey } from './host-key.ts';
import {
  KeyOpenBusy,
  KeyOpenTimedOut,
  MAX_KDF_ROUNDS,
  NotAPrivateKey,
  openLockedKey,
  TooManyKdfRounds,
} from './locked-key.ts';
import { ssh2 } from './ssh2.ts';

export type GeneratedKeyType = 'ed25519' | 'rsa';

export interface KeyPair {
  /** OpenSSH's private key format. */
  privateKey: string;
  /** One `authorized_keys` line: `ssh-ed25519 AAAA… comment`. */
  publicKey: string;
  fingerprint: HostKey;
}

/** Why a pasted key was refused, in words a person can act on. */
export class KeyRefused extends Error {}

/**
 * ssh2 1.17.0 writes about one Ed25519 key in 170 malformed: neither it nor OpenSSH can read
 * it back. Every key made here is read back before it is given out, and a bad one is made again.
 */
const GENERATION_ATTEMPTS = 10;

/**
 * A new key pair, made here: Ed25519, or RSA 4096 where a server cannot take Ed25519. Made on
 * Node's thread pool: RSA 4096 takes about a second of CPU, which would stall every request.
 */
export async function generateKeyPair(type: GeneratedKeyType, comment: string): Promise<KeyPair> {
  for (let attempt = 1; ; attempt += 1) {
    const pair = await new Promise<{ private: string }>((resolve, reject) => {
      const done = (error: Error | null, keys: { private: string }) =>
        error ? reject(error) : resolve(keys);
      const { utils } = ssh2();
      if (type === 'rsa') utils.generateKeyPair('rsa', { bits: 4096, comment }, done);
      else utils.generateKeyPair('ed25519', { comment }, done);
    });
    try {
      return describePrivateKey(pair.private, undefined, comment);
    } catch (error) {
      if (!(error instanceof KeyRefused) || attempt >= GENERATION_ATTEMPTS) throw error;
    }
  }
}

/**
 * Reads a pasted private key (OpenSSH or PEM, with its passphrase when it has one) and gives its
 * public half. Refused with a reason when it is not a private key or the passphrase is wrong.
 */
export function describePrivateKey(text: string, passphrase?: string, comment = ''): KeyPair {
  const parsed = ssh2().utils.parseKey(text, passphrase);
  if (parsed instanceof Error) throw new KeyRefused(refusal(parsed.message, passphrase));
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || !key.isPrivateKey()) throw new KeyRefused(NOT_PRIVATE);
  return keyPair(text, key.type, key.getPublicSSH(), comment || key.comment);
}

/**
 * describePrivateKey for a key and its passphrase, opened on a worker thread (locked-key.ts):
 * an OpenSSH key's passphrase takes ssh2 from a third of a second to seconds of CPU to derive.
 */
export async function describeLockedKey(text: string, passphrase: string): Promise<KeyPair> {
  try {
    const opened = await openLockedKey(text, passphrase);
    return keyPair(text, opened.type, opened.publicSSH, opened.comment);
  } catch (error) {
    if (error instanceof NotAPrivateKey) throw new KeyRefused(NOT_PRIVATE);
    if (error instanceof TooManyKdfRounds) throw new KeyRefused(TOO_MANY_ROUNDS);
    if (error instanceof KeyOpenTimedOut) throw new KeyRefused(TOO_SLOW);
    if (error instanceof KeyOpenBusy) throw new KeyRefused(TOO_BUSY);
    throw new KeyRefused(refusal((error as Error).message, passphrase));
  }
}

// Both name the passphrase, so a form shows them on the passphrase field, next to what fixes it.
const TOO_MANY_ROUNDS = `This key's passphrase takes more than ${MAX_KDF_ROUNDS} bcrypt rounds to open: protect it again with fewer (ssh-keygen -p -a 100)`;
const TOO_SLOW = 'Opening this key with its passphrase took too long';
const TOO_BUSY =
  'Too many keys are being opened with their passphrases right now: try again in a minute';

const NOT_PRIVATE = 'This is not a private key: paste the private key, not the .pub file';

function keyPair(privateKey: string, type: string, blob: Buffer, comment: string): KeyPair {
  const label = comment.replace(/[^\x21-\x7e ]/g, '').trim();
  return {
    privateKey,
    publicKey: `${type} ${blob.toString('base64')}${label ? ` ${label}` : ''}`,
    fingerprint: hostKeyOf(blob),
  };
}

function refusal(message: string, passphrase: string | undefined): string {
  if (/encrypted/i.test(message) && /passphrase/i.test(message) && !passphrase) {
    return 'This key is protected by a passphrase: enter it';
  }
  if (passphrase && /decrypt|passphrase|bad|integrity|check/i.test(message)) {
    return 'The passphrase does not open this key';
  }
  return 'This is not a private key in OpenSSH or PEM format';
}
