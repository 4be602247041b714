import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshKeygen, withKdfRounds } from '#server/testing/sshd.ts';
import {
  kdfRounds,
  KeyOpenBusy,
  KeyOpenTimedOut,
  KEYS_OPENED_AT_ONCE,
  KEYS_WAITING_AT_MOST,
  MAX_KDF_ROUNDS,
  openLockedKey,
} from './locked-key.ts';
import { describeLockedKey, describePrivateKey, generateKeyPair, KeyRefused } from './ssh-keys.ts';

const run = promisify(execFile);

/** `type base64` of a public key line, without the comment some OpenSSH versions print. */
const keyPart = (line: string) => line.split(' ').slice(0, 2).join(' ');

describe('SSH keys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cm-keys-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** OpenSSH's own answers for a private key file: its public line and fingerprint. */
  async function openssh(file: string, passphrase = '') {
    const publicLine = (
      await run('ssh-keygen', ['-y', '-P', passphrase, '-f', file])
    ).stdout.trim();
    await writeFile(`${file}.check.pub`, `${publicLine}\n`);
    const listed = (await run('ssh-keygen', ['-l', '-f', `${file}.check.pub`])).stdout;
    return { publicLine, fingerprint: listed.split(' ')[1] };
  }

  it('generates an Ed25519 key whose public half and fingerprint OpenSSH agrees with', async () => {
    const pair = await generateKeyPair('ed25519', 'deploy@clients-manager');
    const file = path.join(dir, 'generated');
    await writeFile(file, pair.privateKey, { mode: 0o600 });
    const expected = await openssh(file);
    expect(pair.publicKey).toBe(`${keyPart(expected.publicLine)} deploy@clients-manager`);
    expect(pair.fingerprint).toEqual({
      algorithm: 'ssh-ed25519',
      fingerprint: expected.fingerprint,
    });
  });

  it('gives out only keys that read back: ssh2 writes some Ed25519 keys malformed', async () => {
    // At about one bad key in 170, 600 keys meet one with a chance of 97%.
    for (let i = 0; i < 600; i += 1) {
      const pair = await generateKeyPair('ed25519', '');
      expect(describePrivateKey(pair.privateKey).publicKey).toBe(pair.publicKey);
    }
  });

  it('reads a pasted OpenSSH key only with its passphrase, and says which was wrong', async () => {
    const file = path.join(dir, 'protected');
    await sshKeygen(file, { passphrase: 'right words', comment: 'pasted' });
    const text = await readFile(file, 'utf8');
    expect(() => describePrivateKey(text)).toThrow(
      new KeyRefused('This key is protected by a passphrase: enter it'),
    );
    await expect(describeLockedKey(text, 'wrong words')).rejects.toThrow(
      new KeyRefused('The passphrase does not open this key'),
    );
    const key = await describeLockedKey(text, 'right words');
    const expected = await openssh(file, 'right words');
    expect(key).toEqual({
      privateKey: text,
      publicKey: `${keyPart(expected.publicLine)} pasted`,
      fingerprint: { algorithm: 'ssh-ed25519', fingerprint: expected.fingerprint },
    });
    // The same answer as reading it on this thread, as an import does.
    expect(describePrivateKey(text, 'right words')).toEqual(key);
  });

  it('refuses a key whose passphrase takes more bcrypt rounds than the limit, at once', async () => {
    const file = path.join(dir, 'rounds');
    await sshKeygen(file, { passphrase: 'right words', kdfRounds: 32 });
    const text = await readFile(file, 'utf8');
    expect(kdfRounds(text)).toBe(32);
    // The field is the file's own: edited, the key claims any count, and ssh2 would run them all.
    const endless = withKdfRounds(text, 0xffffffff);
    expect(kdfRounds(endless)).toBe(0xffffffff);
    const refusal = new KeyRefused(
      `This key's passphrase takes more than ${MAX_KDF_ROUNDS} bcrypt rounds to open: protect it again with fewer (ssh-keygen -p -a 100)`,
    );
    await expect(describeLockedKey(endless, 'right words')).rejects.toThrow(refusal);
    await expect(describeLockedKey(withKdfRounds(text, MAX_KDF_ROUNDS + 1), 'x')).rejects.toThrow(
      refusal,
    );
    // Not an OpenSSH key, or none that reads: ssh2 derives nothing for them.
    expect(kdfRounds('hello')).toBeNull();
    expect(kdfRounds(await readFile(`${file}.pub`, 'utf8'))).toBeNull();
  });

  it('ends a worker that takes longer than its time, and answers once it has stopped', async () => {
    const file = path.join(dir, 'slow');
    await sshKeygen(file, { passphrase: 'right words', kdfRounds: 32 });
    const text = await readFile(file, 'utf8');
    await expect(openLockedKey(text, 'right words', 50)).rejects.toThrow(KeyOpenTimedOut);
    await expect(describeLockedKey(text, 'right words')).resolves.toMatchObject({
      privateKey: text,
    });
  });

  it('opens a few keys at a time and refuses beyond those waiting their turn', async () => {
    // Each open is a thread with a heap of its own on a core for up to two minutes: as many at
    // once as requests arrive would take the machine's memory and every core.
    const file = path.join(dir, 'many');
    await sshKeygen(file, { passphrase: 'right words', kdfRounds: 1 });
    const text = await readFile(file, 'utf8');
    const asked = KEYS_OPENED_AT_ONCE + KEYS_WAITING_AT_MOST + 1;
    const results = await Promise.allSettled(
      Array.from({ length: asked }, () => openLockedKey(text, 'right words')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(asked - 1);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(KeyOpenBusy);
    // Their turns given back: the next one opens.
    await expect(openLockedKey(text, 'right words')).resolves.toMatchObject({
      type: 'ssh-ed25519',
    });
  });

  it('reads an RSA key in PEM', async () => {
    const file = path.join(dir, 'rsa.pem');
    await sshKeygen(file, { type: 'rsa', pem: true });
    const key = describePrivateKey(await readFile(file, 'utf8'));
    const expected = await openssh(file);
    expect(key.fingerprint).toEqual({ algorithm: 'ssh-rsa', fingerprint: expected.fingerprint });
  });

  it('refuses text that is not a key, and a public key pasted for a private one', async () => {
    expect(() => describePrivateKey('hello, I am not a key')).toThrow(
      new KeyRefused('This is not a private key in OpenSSH or PEM format'),
    );
    const pair = await generateKeyPair('ed25519', '');
    expect(() => describePrivateKey(pair.publicKey)).toThrow(
      new KeyRefused('This is not a private key: paste the private key, not the .pub file'),
    );
    // The same reasons when a passphrase came with them, as the worker that opens keys reads them.
    await expect(describeLockedKey('hello, I am not a key', 'words')).rejects.toThrow(
      new KeyRefused('This is not a private key in OpenSSH or PEM format'),
    );
    await expect(describeLockedKey(pair.publicKey, 'words')).rejects.toThrow(
      new KeyRefused('This is not a private key: paste the private key, not the .pub file'),
    );
  });
});

describe('loaded by Node itself, as the command line and Playwright load the source', () => {
  // Vitest resolves a CommonJS package's named exports by itself; Node's ESM loader sees only
  // those its lexer finds, and ssh2's `utils` and `Server` are not among them.
  it.each(['src/server/ssh/ssh-keys.ts', 'src/server/testing/ssh-password-server.ts'])(
    '%s imports ssh2 in a way Node accepts',
    async (file) => {
      const root = path.resolve(import.meta.dirname, '../../..');
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(path.join(root, file))}); console.log('loaded')`,
        ],
        { cwd: root },
      );
      expect(stdout.trim()).toBe('loaded');
    },
  );
});
