import { createHash } from 'node:crypto';
import type { ServerHostKeyAlgorithm } from 'ssh2';

/** A server's host key as OpenSSH shows it: `ssh-ed25519` and `SHA256:…` (base64, unpadded). */
export interface HostKey {
  algorithm: string;
  fingerprint: string;
}

/** The key's algorithm is the first string of its wire form (RFC 4253, section 6.6). */
export function hostKeyOf(blob: Buffer): HostKey {
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  const algorithm =
    length > 0 && 4 + length <= blob.length ? blob.subarray(4, 4 + length).toString('latin1') : '';
  if (!/^[\x21-\x7e]+$/.test(algorithm)) throw new Error('Not an SSH public key blob');
  const digest = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  return { algorithm, fingerprint: `SHA256:${digest}` };
}

export function sameHostKey(a: HostKey, b: HostKey): boolean {
  return a.algorithm === b.algorithm && a.fingerprint === b.fingerprint;
}

/**
 * The host-key algorithms to ask a server for once its key is pinned: only the pinned key's
 * type. A server that adds a key of another type is then not taken for a changed one, and an
 * RSA key is asked to sign with SHA-2 (`ssh-rsa` signatures use SHA-1, which OpenSSH refuses).
 */
export function pinnedKeyAlgorithms(pinned: HostKey): ServerHostKeyAlgorithm[] {
  if (pinned.algorithm === 'ssh-rsa') return ['rsa-sha2-512', 'rsa-sha2-256'];
  // Read from the key itself: one of the types ssh2 knows, or the handshake finds no match.
  return [pinned.algorithm as ServerHostKeyAlgorithm];
}
