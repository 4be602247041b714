import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.ts';
import { makePrivateFolder } from './private-files.ts';

/** Sealed before values were bound to their place: opened as they are, re-sealed at start. */
const LEGACY = 'v1';
const VERSION = 'v2';
const TAG_BYTES = 16;

/**
 * Where a sealed value lives. It is the value's AES-GCM associated data, so a sealed value
 * copied to another row, column or table does not open there.
 */
export interface SealedPlace {
  table: 'client' | 'credential' | 'deployToken' | 'webhook';
  column: 'serverPassword' | 'secret' | 'passphrase' | 'token';
  row: string;
}

/**
 * Where a client's server password was sealed before servers and credentials had tables of
 * their own; a credential moved from there (migration 0007) opens here until re-sealed.
 */
export const clientPasswordPlace = (clientId: string): SealedPlace => ({
  table: 'client',
  column: 'serverPassword',
  row: clientId,
});

export const credentialPlace = (credentialId: string): SealedPlace => ({
  table: 'credential',
  column: 'secret',
  row: credentialId,
});

/** A pasted SSH key's passphrase, beside its key: a sealed key does not open as a passphrase. */
export const credentialPassphrasePlace = (credentialId: string): SealedPlace => ({
  table: 'credential',
  column: 'passphrase',
  row: credentialId,
});

export const deployTokenPlace = (userId: string): SealedPlace => ({
  table: 'deployToken',
  column: 'token',
  row: userId,
});

export const webhookSecretPlace = (webhookId: string): SealedPlace => ({
  table: 'webhook',
  column: 'secret',
  row: webhookId,
});

function associatedData(place: SealedPlace): Buffer {
  return Buffer.from(JSON.stringify([place.table, place.column, place.row]), 'utf8');
}

export class SecretUnreadable extends Error {
  override name = 'SecretUnreadable';
}

/**
 * Encrypts server passwords and access tokens at rest with AES-256-GCM. The key is derived
 * from SECRET_KEY with HKDF so the same secret can also feed Better Auth under another label.
 * Stored form: `v2.<iv>.<tag>.<ciphertext>` (base64url), so a later key rotation can tell
 * what it is reading; the place the value is stored at is its associated data.
 */
export class SecretBox {
  // A KeyObject made once: from a Buffer, every cipher would import the key anew.
  readonly #key: KeyObject;

  constructor(secretKey: string) {
    this.#key = createSecretKey(deriveKey(secretKey, 'clients-manager/secrets/v1'));
  }

  seal(plain: string, place: SealedPlace): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(place));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Opens a value sealed for `place` (or sealed before places were bound); throws otherwise. */
  open(sealed: string, place: SealedPlace): string {
    const [version, iv, tag, data] = sealed.split('.');
    if ((version !== VERSION && version !== LEGACY) || !iv || !tag || data === undefined) {
      throw new SecretUnreadable('Unreadable sealed secret');
    }
    const tagBytes = Buffer.from(tag, 'base64url');
    // A shorter tag would be checked only as far as it goes: refused outright.
    if (tagBytes.length !== TAG_BYTES) throw new SecretUnreadable('Unreadable sealed secret');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      if (version === VERSION) decipher.setAAD(associatedData(place));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretUnreadable(
        `A stored secret of ${place.table} ${place.row} does not open with this key at this place`,
      );
    }
  }

  /** Whether a value was sealed before places were bound (re-sealed at start). */
  static isLegacy(sealed: string): boolean {
    return sealed.startsWith(`${LEGACY}.`);
  }
}

export function deriveKey(secretKey: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'clients-manager', label, 32));
}

/**
 * Better Auth's `secret`: it signs the session cookies and encrypts what its twoFactor plugin
 * stores (an authenticator's secret and the backup codes), so a new SECRET_KEY changes it too.
 */
export function betterAuthSecret(secretKey: string): string {
  return deriveKey(secretKey, 'clients-manager/better-auth/v1').toString('hex');
}

/**
 * SECRET_KEY from the environment, or else the key kept in DATA_DIR/secret.key, made on the
 * first start (mode 0600) so the embedded default needs no setup. Losing that file makes
 * stored secrets unreadable: it belongs in every backup. The server and the commands call it
 * through secretKeyFor (secret-key-check.ts), which makes a key only for a database that
 * holds nothing sealed.
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  const kept = readSecretKey(configured, dataDir);
  if (kept !== undefined) return kept;
  const file = path.join(dataDir, 'secret.key');
  makePrivateFolder(dataDir);
  const key = randomBytes(32).toString('hex');
  // Written whole under another name and flushed, then linked in: a process starting beside
  // this one never reads half a key, a power cut never leaves an empty one, and `link` refuses
  // to replace a key another process put there first.
  const draft = path.join(dataDir, `.secret.key.${process.pid}.${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(draft, `${key}\n`, { mode: 0o600, flag: 'wx', flush: true });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKeyFile(file)!;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  const dir = fs.openSync(dataDir, 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
  return key;
}

/** SECRET_KEY, else the key in DATA_DIR/secret.key; undefined when there is neither. */
export function readSecretKey(configured: string | undefined, dataDir: string): string | undefined {
  return configured || readKeyFile(path.join(dataDir, 'secret.key'));
}

/** The key in `file`; undefined when there is none; an error when it is empty or a broken link. */
function readKeyFile(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    // Reading a folder fails without naming it: this names it, as the refusals below do.
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new ConfigError(
        `${file} is a folder: it should be the file holding the key that seals this server's secrets (DATA_DIR/secret.key); put the key there, or set SECRET_KEY`,
      );
    }
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // A link whose target is gone is no missing key: a new one made beside it would seal new
    // secrets while the old ones wait behind a link someone meant to keep.
    if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new ConfigError(
        `${file} is a link to a file that does not exist: it should hold the key that seals this server's secrets; point it at the key, or set SECRET_KEY`,
      );
    }
    return undefined;
  }
  const key = text.trim();
  if (key === '') {
    throw new ConfigError(
      `${file} is empty: it held the key that seals this server's secrets; restore it from a backup, or set SECRET_KEY`,
    );
  }
  return key;
}
