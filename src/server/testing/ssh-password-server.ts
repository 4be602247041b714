import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';
import { hostKeyOf, type HostKey } from '#server/ssh/host-key.ts';

// Named exports of ssh2 (CommonJS) other than Client are not seen by Node's ESM loader.
const { Server, utils } = ssh2;

export interface PasswordSshServer {
  host: string;
  port: number;
  /** Its host key as OpenSSH would print it. */
  hostKey: HostKey;
  /** Every password offered to it, in order. */
  passwordsTried: string[];
  close(): void;
}

/**
 * An SSH server in the test process that lets in one user with one password: OpenSSH checks
 * passwords against the machine's accounts, so password logins are tested against this (a
 * real SSH server from the `ssh2` package) instead.
 */
export async function startPasswordSshServer(account: {
  username: string;
  password: string;
}): Promise<PasswordSshServer> {
  const key = utils.generateKeyPairSync('ed25519');
  const parsed = utils.parseKey(key.public);
  if (parsed instanceof Error) throw parsed;
  const passwordsTried: string[] = [];
  const server = new Server({ hostKeys: [key.private] }, (connection) => {
    connection.on('error', () => undefined);
    connection.on('authentication', (context) => {
      if (context.method !== 'password') return context.reject(['password']);
      passwordsTried.push(context.password);
      if (context.username === account.username && context.password === account.password) {
        context.accept();
      } else {
        context.reject(['password']);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    hostKey: hostKeyOf(parsed.getPublicSSH()),
    passwordsTried,
    close: () => server.close(),
  };
}
