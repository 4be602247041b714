import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSecretKey } from './secrets.ts';

/** DATA_DIR/secret.key, the key the embedded default makes for itself when SECRET_KEY is unset. */
describe('the secret key file', () => {
  let dataDir: string;
  const keyFile = () => path.join(dataDir, 'secret.key');

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-key-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is made once, whole and private, and read again on the next start', () => {
    const key = resolveSecretKey(undefined, dataDir);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.readFileSync(keyFile(), 'utf8')).toBe(`${key}\n`);
    expect(fs.statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(resolveSecretKey(undefined, dataDir)).toBe(key);
    // Nothing is left beside it from the making.
    expect(fs.readdirSync(dataDir)).toEqual(['secret.key']);
  });

  it('refuses an empty key file instead of sealing secrets with an empty key', () => {
    fs.writeFileSync(keyFile(), '\n', { mode: 0o600 });
    expect(() => resolveSecretKey(undefined, dataDir)).toThrow(
      /secret\.key is empty.*restore it from a backup, or set SECRET_KEY/,
    );
  });

  it('refuses a link to a key that is gone, and makes no key beside it', () => {
    fs.symlinkSync(path.join(dataDir, 'moved-away.key'), keyFile());
    expect(() => resolveSecretKey(undefined, dataDir)).toThrow(
      /secret\.key is a link to a file that does not exist.*point it at the key, or set SECRET_KEY/,
    );
    expect(fs.readdirSync(dataDir)).toEqual(['secret.key']);
    expect(fs.lstatSync(keyFile()).isSymbolicLink()).toBe(true);
  });

  it('is not read or made when SECRET_KEY is set', () => {
    expect(resolveSecretKey('from the environment', dataDir)).toBe('from the environment');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
