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

const VERSION = 'v1';

/**
 * Encrypts server passwords and access tokens at rest with AES-256-GCM. The key is derived
 * from SECRET_KEY with HKDF so the same secret can also feed Better Auth under another label.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url), so a later key rotation can tell
 * what it is reading.
 */
export class SecretBox {
  // A KeyObject made once: from a Buffer, every cipher would import the key anew.
  readonly #key: KeyObject;

  constructor(secretKey: string) {
    this.#key = createSecretKey(deriveKey(secretKey, 'clients-manager/secrets/v1'));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('Unreadable sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

export function deriveKey(secretKey: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'clients-manager', label, 32));
}

/**
 * SECRET_KEY from the environment, or else the key kept in DATA_DIR/secret.key, made on the
 * first start (mode 0600) so the embedded default needs no setup. Losing that file makes
 * stored secrets unreadable: it belongs in every backup.
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('hex');
  // 'wx' refuses to overwrite a key another process wrote in the meantime.
  try {
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}
