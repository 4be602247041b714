import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockingMs, leastStall } from '#server/testing/event-loop-stall.ts';
import { closedPort } from '#server/testing/free-port.ts';
import { sshKeygen, startSshd, type Sshd } from '#server/testing/sshd.ts';
import {
  startPasswordSshServer,
  type PasswordSshServer,
} from '#server/testing/ssh-password-server.ts';
import { checkReachability } from './reachability.ts';
import type ssh2Module from 'ssh2';
import { ssh2 } from './ssh2.ts';
import type { HostKey } from './host-key.ts';
import { generateKeyPair, type KeyPair } from './ssh-keys.ts';

const FAST = { timeoutMs: 5_000, retryDelayMs: 10 };
/** About 0.6 s of ssh2's bcrypt in JavaScript here (OpenSSH's default is 16 rounds). */
const LOCKED_ROUNDS = 32;

describe('a reachability check against OpenSSH', () => {
  let sshd: Sshd;
  let allowed: KeyPair;
  let pemWithPassphrase: string;
  /** OpenSSH's own format, each protected by a passphrase, by type. */
  const locked: Record<'ed25519' | 'rsa' | 'ecdsa', string> = { ed25519: '', rsa: '', ecdsa: '' };
  let keyDir: string;

  beforeAll(async () => {
    allowed = await generateKeyPair('ed25519', 'clients-manager test');
    // An older kind of key as people paste it: RSA in PEM, protected by a passphrase.
    keyDir = await mkdtemp(path.join(os.tmpdir(), 'cm-keys-'));
    const pemFile = path.join(keyDir, 'id_rsa');
    await sshKeygen(pemFile, { type: 'rsa', pem: true, passphrase: 'open sesame' });
    pemWithPassphrase = await readFile(pemFile, 'utf8');
    const publicKeys = [allowed.publicKey, (await readFile(`${pemFile}.pub`, 'utf8')).trim()];
    for (const type of ['ed25519', 'rsa', 'ecdsa'] as const) {
      const file = path.join(keyDir, `locked_${type}`);
      // Ed25519 with a derivation long enough to see on the event loop; the others quick.
      const kdfRounds = type === 'ed25519' ? LOCKED_ROUNDS : 1;
      await sshKeygen(file, { type, passphrase: 'open sesame', kdfRounds });
      locked[type] = await readFile(file, 'utf8');
      publicKeys.push((await readFile(`${file}.pub`, 'utf8')).trim());
    }
    sshd = await startSshd(publicKeys);
  });
  afterAll(async () => {
    await sshd?.close();
    await rm(keyDir, { recursive: true, force: true });
  });

  const target = () => ({ host: sshd.host, port: sshd.port, username: sshd.username });

  it('logs in with a generated Ed25519 key and reads the host key as OpenSSH prints it', async () => {
    const result = await checkReachability(
      { ...target(), credential: { kind: 'ssh-key', privateKey: allowed.privateKey } },
      FAST,
    );
    expect(result).toEqual({
      status: 'reachable',
      authenticated: true,
      attempts: 1,
      hostKey: await sshd.hostKey(),
    });
    expect((await sshd.hostKey()).fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it('logs in with a PEM key and its passphrase', async () => {
    const result = await checkReachability(
      {
        ...target(),
        credential: { kind: 'ssh-key', privateKey: pemWithPassphrase, passphrase: 'open sesame' },
      },
      FAST,
    );
    expect(result).toMatchObject({ status: 'reachable', authenticated: true });
  });

  it('opens a key with a passphrase off the event loop, which keeps answering meanwhile', async () => {
    const credential = { kind: 'ssh-key' as const, privateKey: locked.ed25519 };
    // What opening the key costs where it blocks: this thread, as ssh2 does it at connect.
    const openingMs = blockingMs(() => {
      expect(ssh2().utils.parseKey(locked.ed25519, 'open sesame')).not.toBeInstanceOf(Error);
    });

    const { results, stallMs } = await leastStall(3, () =>
      checkReachability(
        { ...target(), credential: { ...credential, passphrase: 'open sesame' } },
        FAST,
      ),
    );
    for (const result of results) {
      expect(result).toMatchObject({ status: 'reachable', authenticated: true, attempts: 1 });
    }
    expect(stallMs).toBeLessThan(openingMs / 2);
  });

  it('logs in with RSA and ECDSA keys in OpenSSH format, each with its passphrase', async () => {
    for (const privateKey of [locked.rsa, locked.ecdsa]) {
      const credential = { kind: 'ssh-key' as const, privateKey, passphrase: 'open sesame' };
      const result = await checkReachability({ ...target(), credential }, FAST);
      expect(result).toMatchObject({ status: 'reachable', authenticated: true, attempts: 1 });
    }
  });

  it('says authentication failed for a key with a passphrase that the server does not know', async () => {
    const file = path.join(keyDir, 'stranger_locked');
    await sshKeygen(file, { passphrase: 'open sesame', kdfRounds: 1 });
    const privateKey = await readFile(file, 'utf8');
    const credential = { kind: 'ssh-key' as const, privateKey, passphrase: 'open sesame' };
    const result = await checkReachability({ ...target(), credential }, FAST);
    expect(result).toEqual({ status: 'unreachable', reason: 'authentication failed', attempts: 1 });
  });

  it('says the credential cannot be used when its passphrase no longer opens it, once', async () => {
    const credential = { kind: 'ssh-key' as const, privateKey: locked.rsa, passphrase: 'nope' };
    const result = await checkReachability({ ...target(), credential }, FAST);
    expect(result).toMatchObject({ status: 'unreachable', attempts: 1 });
    expect(result.status === 'unreachable' && result.reason).toMatch(
      /^the credential could not be used: /,
    );
    expect(JSON.stringify(result)).not.toMatch(/nope|PRIVATE KEY/);
  });

  it('without a credential reads the host key and does not log in', async () => {
    const result = await checkReachability(target(), FAST);
    expect(result).toEqual({
      status: 'reachable',
      authenticated: false,
      attempts: 1,
      hostKey: await sshd.hostKey(),
    });
  });

  it('says authentication failed for a key the server does not know, and does not retry', async () => {
    const stranger = await generateKeyPair('ed25519', 'stranger');
    const result = await checkReachability(
      { ...target(), credential: { kind: 'ssh-key', privateKey: stranger.privateKey } },
      FAST,
    );
    expect(result).toEqual({ status: 'unreachable', reason: 'authentication failed', attempts: 1 });
    expect(JSON.stringify(result)).not.toContain('PRIVATE KEY');
  });

  it('refuses a changed host key before logging in, and logs in once the new key is pinned', async () => {
    const first = await sshd.hostKey();
    await sshd.changeHostKey();
    const changed = await sshd.hostKey();
    expect(changed.fingerprint).not.toBe(first.fingerprint);
    const credential = { kind: 'ssh-key' as const, privateKey: allowed.privateKey };

    const refused = await checkReachability({ ...target(), credential, pinned: first }, FAST);
    expect(refused).toEqual({
      status: 'host-key-changed',
      hostKey: changed,
      pinned: first,
      attempts: 1,
    });

    const accepted = await checkReachability({ ...target(), credential, pinned: changed }, FAST);
    expect(accepted).toMatchObject({ status: 'reachable', authenticated: true, hostKey: changed });
  });
});

describe('a reachability check that cannot connect', () => {
  it('says connection refused after three attempts on a closed port', async () => {
    const port = await closedPort();
    const result = await checkReachability(
      { host: '127.0.0.1', port, username: 'deploy' },
      { ...FAST, attempts: 3 },
    );
    expect(result).toEqual({ status: 'unreachable', reason: 'connection refused', attempts: 3 });
  });

  it('says it timed out when the server never answers', async () => {
    const silent = net.createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    try {
      const result = await checkReachability(
        { host: '127.0.0.1', port, username: 'deploy' },
        { timeoutMs: 300, attempts: 2, retryDelayMs: 10 },
      );
      expect(result).toEqual({
        status: 'unreachable',
        reason: 'timed out after 0.3 s',
        attempts: 2,
      });
    } finally {
      silent.close();
    }
  });

  it('stops when told to, in an attempt or between attempts, and rejects', async () => {
    const silent = net.createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const target = { host: '127.0.0.1', port, username: 'deploy' };
    try {
      const stopped = new Error('the app is closing');
      // In an attempt: the handshake would wait 60 s.
      const during = new AbortController();
      const check = checkReachability(target, { timeoutMs: 60_000, signal: during.signal });
      setTimeout(() => during.abort(stopped), 50);
      await expect(check).rejects.toBe(stopped);
      // Between attempts: the retry would wait 60 s.
      const between = new AbortController();
      const retried = checkReachability(target, {
        timeoutMs: 100,
        retryDelayMs: 60_000,
        signal: between.signal,
      });
      setTimeout(() => between.abort(stopped), 300);
      await expect(retried).rejects.toThrow();
    } finally {
      silent.close();
    }
    // Half the 60 s either wait would take: a stop that went unheard fails here.
  }, 30_000);
});

describe('a reachability check with a password (an ssh2 server in the test)', () => {
  let server: PasswordSshServer;
  let passwordsTried: string[];

  beforeAll(async () => {
    server = await startPasswordSshServer({ username: 'deploy', password: 'correct horse' });
    passwordsTried = server.passwordsTried;
  });
  afterAll(() => server?.close());

  const withPassword = (password: string, pinned?: HostKey) =>
    checkReachability(
      {
        host: server.host,
        port: server.port,
        username: 'deploy',
        credential: { kind: 'password', password },
        pinned,
      },
      FAST,
    );

  it('logs in with the right password', async () => {
    const result = await withPassword('correct horse');
    expect(result).toMatchObject({ status: 'reachable', authenticated: true, attempts: 1 });
  });

  it('tries a wrong password once, says authentication failed, and never repeats it', async () => {
    passwordsTried.length = 0;
    const result = await withPassword('battery staple');
    expect(result).toEqual({ status: 'unreachable', reason: 'authentication failed', attempts: 1 });
    expect(passwordsTried).toEqual(['battery staple']);
    expect(JSON.stringify(result)).not.toContain('battery');
  });

  it('lets its socket go when the server never closes its side', async () => {
    // In front of the server: a relay that keeps its side towards the check open for good.
    const held: net.Socket[] = [];
    const relay = net.createServer({ allowHalfOpen: true }, (socket) => {
      held.push(socket);
      socket.on('error', () => undefined);
      const upstream = net.connect(server.port, server.host);
      upstream.on('error', () => undefined);
      socket.pipe(upstream);
      upstream.pipe(socket, { end: false });
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    const relayPort = (relay.address() as AddressInfo).port;
    // The check's sockets to the relay still open in this process. (Node names no public way
    // to list them; its resource list counts sockets, but those of earlier tests close
    // meanwhile.)
    const checkSockets = () =>
      (process as unknown as { _getActiveHandles(): unknown[] })
        ._getActiveHandles()
        .filter((handle) => handle instanceof net.Socket && handle.remotePort === relayPort).length;
    try {
      const result = await checkReachability(
        {
          host: '127.0.0.1',
          port: relayPort,
          username: 'deploy',
          credential: { kind: 'password', password: 'correct horse' },
        },
        FAST,
      );
      expect(result.status).toBe('reachable');
      expect(held).toHaveLength(1);
      // The relay's side stays open; the check's own socket goes.
      await expect.poll(checkSockets, { timeout: 5_000 }).toBe(0);
      expect(held[0]!.destroyed).toBe(false);
    } finally {
      for (const socket of held) socket.destroy();
      relay.close();
    }
  });

  it('sends no password to a server whose host key changed', async () => {
    passwordsTried.length = 0;
    const pinned = { algorithm: 'ssh-ed25519', fingerprint: 'SHA256:' + 'A'.repeat(43) };
    const result = await withPassword('correct horse', pinned);
    expect(result).toMatchObject({ status: 'host-key-changed', pinned });
    expect(passwordsTried).toEqual([]);
  });
});

describe('a reachability check of a server that shows a key it does not hold', () => {
  let impostor: ssh2Module.Server;
  let port: number;
  let realKey: HostKey;

  beforeAll(async () => {
    const real = await generateKeyPair('ed25519', 'the real server');
    const own = await generateKeyPair('ed25519', 'the impostor');
    const realPublic = ssh2().utils.parseKey(real.publicKey);
    if (realPublic instanceof Error) throw realPublic;
    realKey = real.fingerprint;
    const signer = ssh2().utils.parseKey(own.privateKey);
    if (signer instanceof Error) throw signer;
    // It shows the real server's public key, and signs the key exchange with its own.
    signer.getPublicSSH = () => realPublic.getPublicSSH();
    impostor = new (ssh2().Server)({ hostKeys: [{ key: signer }] as never }, (connection) => {
      connection.on('error', () => undefined);
      connection.on('authentication', (context) => context.reject());
    });
    impostor.listen(0, '127.0.0.1');
    await once(impostor, 'listening');
    port = (impostor.address() as AddressInfo).port;
  });
  afterAll(() => impostor?.close());

  it.each([
    ['pinned to the key it shows', () => realKey],
    ['not pinned yet', () => undefined],
  ])('is not reachable without a credential, %s', async (_, pinned) => {
    const target = { host: '127.0.0.1', port, username: 'deploy', pinned: pinned() };
    const result = await checkReachability(target, { ...FAST, attempts: 1 });
    expect(result.status).toBe('unreachable');
    expect(result).toMatchObject({ reason: expect.stringContaining('signature') as string });
  });
});

describe('a reachability check of a server with keys of two types', () => {
  let server: ssh2Module.Server;
  let port: number;
  const keys: Record<'rsa' | 'ed25519', HostKey> = {
    rsa: { algorithm: '', fingerprint: '' },
    ed25519: { algorithm: '', fingerprint: '' },
  };

  beforeAll(async () => {
    const rsa = await generateKeyPair('rsa', 'host rsa');
    const ed25519 = await generateKeyPair('ed25519', 'host ed25519');
    keys.rsa = rsa.fingerprint;
    keys.ed25519 = ed25519.fingerprint;
    server = new (ssh2().Server)({ hostKeys: [rsa.privateKey, ed25519.privateKey] }, (c) => {
      c.on('error', () => undefined);
      c.on('authentication', (context) => context.reject());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server?.close());

  // A server that adds a key of another type is the same server: the pinned type is asked for.
  it.each(['rsa', 'ed25519'] as const)('is reachable with its %s key pinned', async (type) => {
    const target = { host: '127.0.0.1', port, username: 'deploy', pinned: keys[type] };
    const result = await checkReachability(target, { ...FAST, attempts: 1 });
    expect(result).toMatchObject({ status: 'reachable', hostKey: keys[type] });
  });

  it('says the key changed, naming the new one, when no key of the pinned type is left', async () => {
    // An ECDSA key pinned before: the server has none now.
    const pinned = { algorithm: 'ecdsa-sha2-nistp256', fingerprint: `SHA256:${'E'.repeat(43)}` };
    const target = { host: '127.0.0.1', port, username: 'deploy', pinned };
    const result = await checkReachability(target, { ...FAST, attempts: 1 });
    expect(result).toMatchObject({ status: 'host-key-changed', pinned, hostKey: keys.ed25519 });
  });
});
