import type { CheckOptions } from '#server/ssh/reachability.ts';
import type { WebhookTimings } from '#server/realtime/webhook-outbox.ts';
import type { RunTimings } from '#server/features/runs/run-manager.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import { MailCatcher, linkIn, type CaughtMail } from './mail-catcher.ts';
import { closedPort, freePort, serverPort } from './free-port.ts';
import { createTestPostgresDatabase, testDialect, type TestDialect } from './test-database.ts';
import { quickPasswordHashing } from './quick-password-hashing.ts';

export { closedPort, freePort, serverPort };

process.env.BETTER_AUTH_TELEMETRY = '0';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Config;
  mail: MailCatcher;
  dataDir: string;
  /** DATABASE_URL when on PostgreSQL, for a child process (a CLI command) on the same data. */
  databaseEnv: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The real server, listening on a free loopback port, with a real SMTP server catching its
 * mail. Its database is the dialect under test (test-database.ts): a real SQLite file in a
 * fresh temp folder, or a fresh database on the run's real PostgreSQL server, dropped again on
 * close. A DATABASE_URL in `env` is used as it is (e.g. a second instance on one database).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    clientDir?: string;
    /**
     * A web build of these files (path under it → text) made in the data folder, so it goes
     * with the folder on close; `clientDir` wins if both are given.
     */
    webFiles?: Readonly<Record<string, string>>;
    logStream?: { write(line: string): void };
    /** A port chosen beforehand (e.g. to register the redirect URI at an OpenID provider). */
    port?: number;
    /** Overrides the dialect under test. */
    database?: TestDialect;
    /**
     * A DATA_DIR of the caller's instead of a fresh one, left in place on close: with a
     * DATABASE_URL of the caller's too (on PostgreSQL), a later server starts on the same data.
     */
    dataDir?: string;
    /** Timeouts and retries of server checks. */
    serverChecks?: CheckOptions;
    /** Milliseconds between scheduled checks; unset: no schedule, whatever `env` says. */
    checkIntervalMs?: number;
    /** Webhook retry delays and timeout (tests shorten them). */
    webhooks?: WebhookTimings;
    /** Run heartbeat, cancel grace and SSH timeout (tests shorten them). */
    runs?: RunTimings;
    /** A connection's inactivity before the server closes it, and the streams' keep-alive. */
    connection?: { timeoutMs: number; streamKeepAliveMs: number };
  } = {},
): Promise<TestServer> {
  const own =
    env.DATABASE_URL === undefined && (options.database ?? testDialect()) === 'postgres'
      ? await createTestPostgresDatabase()
      : undefined;
  if (own) env = { DATABASE_URL: own.url, ...env };
  const mail = await new MailCatcher().start();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cm-test-'));
  const clientDir = options.clientDir ?? writeWebFiles(dataDir, options.webFiles);
  const start = async (port: number) => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: mail.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...env,
    });
    const app = await buildApp(config, {
      clientDir,
      ...(options.logStream ? { logStream: options.logStream } : {}),
      ...(options.serverChecks ? { serverChecks: options.serverChecks } : {}),
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      ...(options.runs ? { runs: options.runs } : {}),
      ...(options.connection
        ? {
            connectionTimeoutMs: options.connection.timeoutMs,
            streamKeepAliveMs: options.connection.streamKeepAliveMs,
          }
        : {}),
      // A test's servers are checked only when it asks: a schedule must not disturb the others.
      checkIntervalMs: options.checkIntervalMs ?? 0,
      passwordHashing: quickPasswordHashing,
    });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      throw error;
    }
    return { config, app };
  };
  // The port is only known after listening, but PUBLIC_URL must be known before: a free port
  // is taken first. Another test's server or outgoing connection may take it meanwhile (the
  // build takes seconds on a loaded machine): then another one is tried.
  let port = options.port ?? (await freePort());
  let started: Awaited<ReturnType<typeof start>>;
  for (let attempt = 1; ; attempt += 1) {
    try {
      started = await start(port);
      break;
    } catch (error) {
      if (options.port !== undefined || attempt >= 3 || !isAddressInUse(error)) {
        await mail.close();
        await own?.drop();
        if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
        throw error;
      }
      port = await freePort();
    }
  }
  const { config, app } = started;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    config,
    mail,
    dataDir,
    databaseEnv: config.database.kind === 'postgres' ? { DATABASE_URL: config.database.url } : {},
    async close() {
      await app.close();
      await mail.close();
      await own?.drop();
      if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** True for the error of listening on a port something else has taken. */
export function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EADDRINUSE';
}

/**
 * The smallest web build the server serves as the app: a page and one hashed asset, so the
 * static routes are registered and answer.
 */
export const SMALL_WEB_BUILD = {
  'index.html': '<!doctype html><title>Clients Manager</title>',
  'assets/index-abc123.js': 'console.log(1)',
} as const;

/** `files` written under `dataDir/web`, or a folder that does not exist when there are none. */
function writeWebFiles(dataDir: string, files: Readonly<Record<string, string>> = {}): string {
  const web = path.join(dataDir, Object.keys(files).length > 0 ? 'web' : 'no-web-app');
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(web, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return web;
}

/** What a Session and a sign-up need of a server: also a server run as a child process. */
export type ServerAddress = Pick<TestServer, 'url' | 'mail'>;

/** A signed-in user's HTTP client: a cookie jar and JSON helpers over fetch. */
export class Session {
  readonly server: Pick<TestServer, 'url'>;
  readonly cookies = new Map<string, string>();

  constructor(server: Pick<TestServer, 'url'>) {
    this.server = server;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  #keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const response = await fetch(new URL(url, this.server.url), {
      method,
      redirect: 'manual',
      headers: {
        origin: this.server.url,
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    this.#keep(response);
    return response;
  }

  async json<T = unknown>(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await this.request(method, url, body);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }
}

let counter = 0;
export function uniqueEmail(prefix = 'staff'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}@example.test`;
}

/**
 * Confirms a sign-up as its page does: the token of the mailed link (or of the mail itself)
 * and the password chosen at sign-up, posted in `session`, which is signed in when they match.
 */
export function confirmSignUp(
  session: Session,
  link: CaughtMail | string,
  password: string,
): Promise<Response> {
  const url = new URL(typeof link === 'string' ? link : linkIn(link));
  const token = url.searchParams.get('token');
  return session.request('POST', '/api/auth/confirm-email', { token, password });
}

/** Signs up by email, confirms it with the mailed link and the password, returns the session. */
export async function signUpVerified(
  server: ServerAddress,
  options: { email?: string; password?: string; name?: string } = {},
): Promise<Session> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const session = new Session(server);
  const before = server.mail.mails.length;
  const signUp = await session.request('POST', '/api/auth/sign-up/email', {
    email,
    password,
    name: options.name ?? 'Test Staff',
    callbackURL: '/',
  });
  if (signUp.status !== 200)
    throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const mail = await server.mail.waitFor(email, 'Verify your email', before);
  const verify = await confirmSignUp(session, mail, password);
  if (verify.status !== 200)
    throw new Error(`verification failed: ${verify.status} ${await verify.text()}`);
  return session;
}

/**
 * Asks for a password reset as someone who forgot it would, in `session`, and follows the
 * mailed link: the answer to following it (a redirect to the reset page with its token).
 */
export async function followPasswordResetMail(
  server: ServerAddress,
  session: Session,
  email: string,
): Promise<Response> {
  const before = server.mail.mails.length;
  const ask = await session.request('POST', '/api/auth/request-password-reset', {
    email,
    redirectTo: '/reset-password',
  });
  if (ask.status !== 200) throw new Error(`reset request failed: ${ask.status}`);
  const mail = await server.mail.waitFor(email, 'Reset your Clients Manager password', before);
  return session.request('GET', linkIn(mail));
}
