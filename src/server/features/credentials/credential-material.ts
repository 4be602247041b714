import type { CredentialKind } from '#shared/servers.ts';
import type { GENERATED_KEY_TYPES } from '#shared/credentials.ts';
import { HttpError } from '#server/http/http-error.ts';
import {
  describeLockedKey,
  describePrivateKey,
  generateKeyPair,
  KeyRefused,
  type KeyPair,
} from '#server/ssh/ssh-keys.ts';
import type { CredentialMaterial } from './credential-secrets.ts';

/** A new secret as create and rotate take it, checked already by `secretIssues`. */
export interface SecretInput {
  generate?: (typeof GENERATED_KEY_TYPES)[number] | undefined;
  privateKey?: string | undefined;
  passphrase?: string | undefined;
  secret?: string | undefined;
}

/** The comment of a generated key's public line: the credential's name in plain characters. */
export function keyComment(name: string): string {
  const safe = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._@+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return safe === '' ? 'clients-manager' : safe;
}

/** A 400 naming the field a person fixes; the message never quotes what they sent. */
function refused(field: 'privateKey' | 'passphrase', message: string): HttpError {
  return new HttpError(400, `${field}: ${message}`, { fields: { [field]: message } });
}

/**
 * Reads a pasted key. A passphrase given for a key that has none is dropped: it opens nothing,
 * and keeping it would hand out a second secret that is not one. A key that needs it is opened
 * off the event loop (describeLockedKey).
 */
async function pastedKey(
  text: string,
  passphrase: string | undefined,
): Promise<CredentialMaterial> {
  const given = passphrase === undefined || passphrase === '' ? undefined : passphrase;
  let pair: KeyPair;
  let needed = false;
  try {
    pair = describePrivateKey(text);
  } catch (error) {
    if (given === undefined) throw refusedKey(error);
    pair = await describeLockedKey(text, given).catch((locked: unknown) => {
      throw refusedKey(locked);
    });
    needed = true;
  }
  return {
    secret: pair.privateKey,
    passphrase: needed ? given! : null,
    publicKey: pair.publicKey,
    fingerprint: pair.fingerprint.fingerprint,
  };
}

/** A key that did not read, as a 400 on the field to fix. */
function refusedKey(error: unknown): HttpError {
  if (error instanceof KeyRefused) {
    const field = /passphrase/i.test(error.message) ? 'passphrase' : 'privateKey';
    return refused(field, error.message);
  }
  // ssh2 throws for some malformed input rather than returning its error.
  return refused('privateKey', 'This is not a private key in OpenSSH or PEM format');
}

/**
 * What a credential of `kind` stores for `input`: a generated or pasted SSH key with its public
 * half, or the password or token. A pasted key that does not read is a 400 naming the field.
 */
export async function materialOf(
  kind: CredentialKind,
  input: SecretInput,
  name: string,
): Promise<CredentialMaterial> {
  if (kind !== 'ssh-key') {
    return { secret: input.secret ?? '', passphrase: null, publicKey: null, fingerprint: null };
  }
  if (input.generate !== undefined) {
    const pair = await generateKeyPair(input.generate, keyComment(name));
    return {
      secret: pair.privateKey,
      passphrase: null,
      publicKey: pair.publicKey,
      fingerprint: pair.fingerprint.fingerprint,
    };
  }
  return pastedKey(input.privateKey ?? '', input.passphrase);
}
