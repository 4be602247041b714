import { createPrivateKey, sign } from 'node:crypto';
import type {
  BaseAgent,
  ConnectConfig,
  ParsedKey,
  SignCallback,
  SigningRequestOptions,
} from 'ssh2';
import { openLockedKey, type OpenedKey } from './locked-key.ts';
import { ssh2 } from './ssh2.ts';

/** What a connection logs in with. */
export type SshCredential =
  | { kind: 'password'; password: string }
  | { kind: 'ssh-key'; privateKey: string; passphrase?: string };

/**
 * ssh2's login options for a credential. A key with a passphrase is opened on a worker thread
 * (locked-key.ts) and offered through an agent of our own that holds only that key: handed to
 * ssh2 with its passphrase, it would be opened again on the event loop at every connection.
 * The agent is never forwarded to the server: `agentForward` stays off, so nothing there can
 * ask it to sign. Rejects when the key does not open.
 */
export async function credentialAuth(credential: SshCredential): Promise<Partial<ConnectConfig>> {
  if (credential.kind === 'password') return { password: credential.password };
  if (credential.passphrase === undefined) return { privateKey: credential.privateKey };
  return {
    agent: openedKeyAgent(await openLockedKey(credential.privateKey, credential.passphrase)),
  };
}

/**
 * Why a connection could not log in with a credential that does not open (credentialAuth's
 * rejection, or ssh2 refusing a key at connect): its reason never quotes the key or passphrase.
 */
export function unusableCredential(error: unknown): string {
  return `the credential could not be used: ${(error as Error).message}`;
}

/** The hash each kind of key signs with, where the server's choice does not name one. */
function defaultHash(type: string): string | null {
  if (type === 'ssh-ed25519') return null;
  if (type === 'ecdsa-sha2-nistp256') return 'sha256';
  if (type === 'ecdsa-sha2-nistp384') return 'sha384';
  if (type === 'ecdsa-sha2-nistp521') return 'sha512';
  // ssh-rsa without rsa-sha2 from the server, and ssh-dss.
  return 'sha1';
}

/**
 * An agent that offers one opened key and signs with Node's crypto, as ssh2 signs with a key of
 * its own: the signature in the same form (ssh2 turns ECDSA's and DSA's DER into SSH's).
 */
function openedKeyAgent(key: OpenedKey): BaseAgent {
  const { BaseAgent: Agent, utils } = ssh2();
  const publicKey = utils.parseKey(`${key.type} ${key.publicSSH.toString('base64')}`);
  if (publicKey instanceof Error) throw publicKey;
  const privateKey = createPrivateKey(key.privatePEM);
  const identities: ParsedKey[] = Array.isArray(publicKey) ? publicKey : [publicKey];

  class OpenedKeyAgent extends Agent<ParsedKey> {
    getIdentities(cb: (error: Error | null, keys?: ParsedKey[]) => void): void {
      cb(null, identities);
    }

    sign(
      _publicKey: ParsedKey,
      data: Buffer,
      optionsOrCb: SigningRequestOptions | SignCallback,
      maybeCb?: SignCallback,
    ): void {
      const [options, cb] =
        typeof optionsOrCb === 'function' ? [{}, optionsOrCb] : [optionsOrCb, maybeCb];
      try {
        cb?.(null, sign(options.hash ?? defaultHash(key.type), data, privateKey));
      } catch (error) {
        cb?.(error as Error);
      }
    }
  }
  return new OpenedKeyAgent();
}
