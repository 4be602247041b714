import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import ssh2, { type ServerChannel } from 'ssh2';
import type { HostKey } from '#server/ssh/host-key.ts';
import { generateKeyPair } from '#server/ssh/ssh-keys.ts';

// Named exports of ssh2 (CommonJS) other than Client are not seen by Node's ESM loader.
const { Server } = ssh2;

/** What the server does with a command a signed-in client asks it to run. */
export interface CommandBehaviour {
  /** The command's channel is open: write its output, and end it with `exit()` and `end()`. */
  started(channel: ServerChannel, command: string): void;
  /** The client sent the running command a signal (`TERM`, `KILL`…). */
  signalled(name: string, channel: ServerChannel): void;
}

export interface PasswordSshServer {
  host: string;
  port: number;
  /** Its host key as OpenSSH would print it. */
  hostKey: HostKey;
  /** Every password offered to it, in order. */
  passwordsTried: string[];
  /**
   * Logins under way: connected and not yet answered. Each lies within one check on the
   * client's side, so the most at once is a floor of the checks run side by side (reset it to
   * watch afresh).
   */
  readonly loginsUnderWay: number;
  maxLoginsUnderWay: number;
  /** How long it thinks before answering a password (may be changed while it runs). */
  answerAfterMs: number | undefined;
  /** While set, passwords are answered only once it resolves: a check held mid-login. */
  answersHeldUntil: Promise<void> | undefined;
  /**
   * While set, a signed-in client's request for a session (to run a command) is never
   * answered: a server that lets one in and then hangs. Otherwise it is refused.
   */
  sessionsUnanswered: boolean;
  /** While set, a client's commands are run this way; otherwise they are refused. */
  commands: CommandBehaviour | undefined;
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
  answerAfterMs?: number;
}): Promise<PasswordSshServer> {
  // Not ssh2's generateKeyPairSync straight: it writes about one Ed25519 key in 170 malformed
  // (a test run failed on one); this reads each back and makes another.
  const key = await generateKeyPair('ed25519', 'password-server');
  const passwordsTried: string[] = [];
  let underWay = 0;
  const server = new Server({ hostKeys: [key.privateKey] }, (connection) => {
    underWay += 1;
    result.maxLoginsUnderWay = Math.max(result.maxLoginsUnderWay, underWay);
    let answered = false;
    const settle = () => {
      if (answered) return;
      answered = true;
      underWay -= 1;
    };
    connection.on('error', () => undefined);
    connection.on('close', settle);
    connection.on('session', (accept, reject) => {
      if (result.sessionsUnanswered) return;
      const commands = result.commands;
      if (!commands) return reject();
      const session = accept();
      let channel: ServerChannel | undefined;
      session.on('exec', (acceptExec, _rejectExec, info) => {
        channel = acceptExec();
        commands.started(channel, info.command);
      });
      session.on('signal', (_acceptSignal, _rejectSignal, info) => {
        if (channel) commands.signalled(info.name, channel);
      });
    });
    connection.on('authentication', (context) => {
      if (context.method !== 'password') return context.reject(['password']);
      passwordsTried.push(context.password);
      const right = context.username === account.username && context.password === account.password;
      const answer = () => {
        if (answered) return;
        settle();
        if (right) context.accept();
        else context.reject(['password']);
      };
      if (result.answersHeldUntil) void result.answersHeldUntil.then(answer);
      else if (result.answerAfterMs === undefined) answer();
      else setTimeout(answer, result.answerAfterMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const result: PasswordSshServer = {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    hostKey: key.fingerprint,
    passwordsTried,
    get loginsUnderWay() {
      return underWay;
    },
    maxLoginsUnderWay: 0,
    answerAfterMs: account.answerAfterMs,
    answersHeldUntil: undefined,
    sessionsUnanswered: false,
    commands: undefined,
    close: () => server.close(),
  };
  return result;
}
