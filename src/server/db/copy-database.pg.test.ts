import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ServerList } from '#shared/servers.ts';
import { appWithEndedRun } from '#server/testing/app-records.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import { runScript } from '#server/testing/run-script.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { openEventStream, type SseMessage } from '#server/testing/sse-reader.ts';
import { backupDatabase } from './backup.ts';
import { CopyRefused, copyDatabase } from './copy-database.ts';
import { openDatabase } from './database.ts';
import { migrateToLatest } from './migrate.ts';

const SECRET_KEY = 'copy-database-test-secret-key-'.repeat(2);

/** `npm run db:copy -- …` as an operator runs it. */
const dbCopy = (args: string[]) => runScript('src/server/cli/db-copy.ts', args);

/** What a signed-in user sees, exactly as the API sends it. (Reading passwords adds events.) */
async function view(session: Session, clientIds: string[]) {
  const text = async (url: string) => {
    const response = await session.request('GET', url);
    expect(response.status, url).toBe(200);
    return response.text();
  };
  return {
    list: await text('/api/clients'),
    me: await text('/api/me'),
    commands: await Promise.all(clientIds.map((id) => text(`/api/clients/${id}/commands`))),
    passwords: await Promise.all(clientIds.map((id) => text(`/api/clients/${id}/password`))),
    webhooks: await text('/api/webhooks'),
    apps: await text('/api/apps'),
    issues: await text('/api/issues?state=all'),
    logs: await Promise.all(runIds.map((id) => text(`/api/runs/${id}/log.txt`))),
  };
}

type Frame = Pick<SseMessage, 'id' | 'event' | 'data'>;

/** The whole event log as a browser replays it from the start: id, event and data of each. */
async function events(session: Session): Promise<Frame[]> {
  const stream = await openEventStream(session.server.url, session.cookieHeader, '0');
  const replay = await stream.until('stream.ready');
  stream.close();
  return replay
    .filter((m) => m.id !== undefined)
    .map(({ id, event, data }) => ({ id, event, data }));
}

function onServer(server: TestServer, session: Session): Session {
  const moved = new Session(server);
  for (const [name, value] of session.cookies) moved.cookies.set(name, value);
  return moved;
}

let source: TestServer;
let sourceFile: string;
let alice: Session;
let clientIds: string[];
let deletedId: string;
const runIds: string[] = [];
let before: Awaited<ReturnType<typeof view>>;
let beforeEvents: Frame[];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // A team's SQLite installation, filled through the API.
  source = await startTestServer({ SECRET_KEY }, { database: 'sqlite' });
  sourceFile = path.join(source.dataDir, 'clients-manager.db');
  alice = await signUpVerified(source, { name: 'Alice', password: 'alice password 1' });
  const bob = await signUpVerified(source, {
    name: 'Bob',
    email: 'bob@example.test',
    password: 'bob password 12',
  });
  // Someone who signed up and has not verified yet: a pending verification.
  await new Session(source).request('POST', '/api/auth/sign-up/email', {
    email: 'carol@example.test',
    password: 'carol password 1',
    name: 'Carol',
  });
  expect(
    (await alice.json('PUT', '/api/me/access-token', { accessToken: 'tok-alice-123' })).status,
  ).toBe(200);
  const created: Client[] = [];
  for (let i = 0; i < 7; i++) {
    const session = i % 2 ? bob : alice;
    const { body } = await session.json<Client>('POST', '/api/clients', {
      name: `Client ${i}`,
      code: `C${i}`,
      description: i === 3 ? 'Ünïcødé — “quotes” and emoji 🚀' : `Client number ${i}`,
      tags: `prod-${i}, eu`,
      startDate: `2024-0${(i % 9) + 1}-15`,
      server: {
        host: `host${i}.example.com`,
        port: 2200 + i,
        username: 'deploy',
        password: `secret-${i}`,
        private: i % 3 !== 0,
      },
      domains: [`https://c${i}.example.com`],
    });
    created.push(body);
  }
  await alice.json('PUT', `/api/clients/${created[1]!.id}`, {
    name: 'Client 1, renamed',
    version: 1,
  });
  await bob.json('POST', `/api/clients/${created[2]!.id}/duplicate`);
  await alice.request('DELETE', `/api/clients/${created[6]!.id}`);
  await alice.request('GET', `/api/clients/${created[0]!.id}/password`);
  clientIds = created.slice(0, 6).map((c) => c.id);
  deletedId = created[6]!.id;
  // A webhook endpoint (switched off: it delivers nothing), its secret sealed.
  expect(
    (
      await alice.json('POST', '/api/webhooks', {
        url: 'https://hooks.example.com/copy',
        events: ['client.created'],
        enabled: false,
        secret: 'copied-webhook-secret',
      })
    ).status,
  ).toBe(201);
  // Two apps with an ended run each (their logs keyed by run and line), and an issue with a
  // comment.
  const servers = await alice.json<ServerList>('GET', `/api/servers?clientId=${clientIds[0]}`);
  const target = { clientId: clientIds[0]!, serverId: servers.body.servers[0]!.id };
  for (const name of ['web', 'api']) {
    const { runId } = await appWithEndedRun(source, alice, target, name);
    await source.app.parts.db.kysely
      .insertInto('runLog')
      .values(
        [2, 3].map((seq) => ({
          runId,
          seq,
          stream: 'err',
          text: `line ${seq}\n`,
          at: '2026-01-01',
        })),
      )
      .execute();
    runIds.push(runId);
  }
  const issue = await alice.json<{ id: string }>('POST', '/api/issues', {
    clientId: clientIds[0],
    title: 'Copied issue',
    text: 'Kept as it was',
  });
  expect(issue.status).toBe(201);
  expect(
    (await alice.json('POST', `/api/issues/${issue.body.id}/comments`, { text: 'A comment' }))
      .status,
  ).toBe(201);
  before = await view(alice, clientIds);
  beforeEvents = await events(alice);
  // The team stops the server before copying.
  await source.app.close();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await source.mail.close();
  fs.rmSync(source.dataDir, { recursive: true, force: true });
});

async function freshPostgres(): Promise<string> {
  const database = await createTestPostgresDatabase();
  cleanups.push(database.drop);
  return database.url;
}

async function startOn(url: string): Promise<TestServer> {
  const server = await startTestServer({ DATABASE_URL: url, SECRET_KEY });
  cleanups.push(() => server.close());
  return server;
}

describe('npm run db:copy', () => {
  it('moves a SQLite installation to PostgreSQL: same API answers, same events, sessions kept', async () => {
    const url = await freshPostgres();
    const copy = await dbCopy(['--from', `sqlite:${sourceFile}`, '--to', url, '--sessions']);
    expect(copy.err).toBe('');
    expect(copy.code).toBe(0);
    expect(copy.out).toContain('Copy verified.');
    for (const table of [
      'user',
      'account',
      'verification',
      'session',
      'deployToken',
      'client',
      'deletedClient',
      'event',
      'webhook',
    ]) {
      expect(copy.out).toMatch(new RegExp(`^${table} .* ok$`, 'm'));
    }
    expect(copy.out).toMatch(/^client +7 +7 /m);
    expect(copy.out).not.toContain(url.split('@')[0]!.split(':')[2]); // no password printed

    const target = await startOn(url);
    const aliceThere = onServer(target, alice);
    // Byte for byte: the event log, the list, the user, decrypted commands and passwords.
    expect(await events(aliceThere)).toEqual(beforeEvents);
    expect(await view(aliceThere, clientIds)).toEqual(before);

    // New events continue after the copied ones; people sign in with their old passwords.
    const last = Number((await events(aliceThere)).at(-1)!.id);
    const stream = await openEventStream(target.url, aliceThere.cookieHeader);
    await stream.until('stream.ready');
    await aliceThere.json('POST', '/api/clients', { name: 'After the move' });
    expect(Number((await stream.next()).id)).toBe(last + 1);
    stream.close();
    // A client deleted before the move can still be brought back, password and all.
    const restored = await aliceThere.json<Client>('POST', `/api/clients/${deletedId}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.name).toBe('Client 6');
    const password = await aliceThere.json('GET', `/api/clients/${deletedId}/password`);
    expect(password.body).toEqual({ password: 'secret-6' });
    const bob = new Session(target);
    const signIn = await bob.json('POST', '/api/auth/sign-in/email', {
      email: 'bob@example.test',
      password: 'bob password 12',
    });
    expect(signIn.status).toBe(200);

    // Copying into it again is refused: a server runs on it, and stopped, it is not empty.
    const running = await dbCopy(['--from', `sqlite:${sourceFile}`, '--to', url]);
    expect(running.code).toBe(1);
    expect(running.err).toBe(
      'Not copied: 1 Clients Manager server(s) are running on this database: stop every instance first.\n',
    );
    await target.app.close();
    const again = await dbCopy(['--from', `sqlite:${sourceFile}`, '--to', url]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^Not copied: The target database is not empty \(user: 3, /m);
  });

  it('leaves sessions out unless asked: everyone signs in again', async () => {
    const url = await freshPostgres();
    const copy = await dbCopy(['--from', sourceFile, '--to', url]);
    expect(copy.code).toBe(0);
    expect(copy.out).toMatch(/^session +- +- +not copied/m);
    const target = await startOn(url);
    expect((await onServer(target, alice).json('GET', '/api/me')).status).toBe(401);
    const signIn = await new Session(target).json('POST', '/api/auth/sign-in/email', {
      email: 'bob@example.test',
      password: 'bob password 12',
    });
    expect(signIn.status).toBe(200);
  });

  it('copies back from PostgreSQL to SQLite with the same checksum', async () => {
    const url = await freshPostgres();
    const there = await copyDatabase(
      { kind: 'sqlite', file: sourceFile },
      { kind: 'postgres', url, poolSize: 2 },
      { sessions: true, batchSize: 3 },
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-copy-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const back = await copyDatabase(
      { kind: 'postgres', url, poolSize: 2 },
      { kind: 'sqlite', file: path.join(dir, 'back.db') },
      { sessions: true },
    );
    expect(there.verified && back.verified).toBe(true);
    expect(back.sourceChecksum).toBe(there.targetChecksum);
    expect(back.targetChecksum).toBe(there.sourceChecksum);
    expect(back.tables.map((t) => [t.table, t.target])).toEqual(
      there.tables.map((t) => [t.table, t.target]),
    );
  });

  // SQLite keeps NUL in text, PostgreSQL refuses it: data written past the API's checks.
  it('names the table whose row the target refuses, and copies nothing', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-nul-')), 'source.db');
    await backupDatabase({ kind: 'sqlite', file: sourceFile }, file);
    const sqlite = new SQLite(file);
    sqlite.prepare('update client set description = ? where id = ?').run('a\u0000b', clientIds[0]);
    sqlite.close();
    const url = await freshPostgres();
    const copy = await dbCopy(['--from', `sqlite:${file}`, '--to', url]);
    expect(copy.code).toBe(1);
    expect(copy.err).toMatch(/^Not copied: The target refused a row of client: .+$/m);
    const target = openDatabase({ kind: 'postgres', url, poolSize: 1 });
    try {
      const tables = await target.kysely.introspection.getTables();
      const clients = tables.some((t) => t.name === 'client')
        ? await target.kysely.selectFrom('client').select('id').execute()
        : [];
      expect(clients).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('refuses a source that is not there, and says why', async () => {
    const url = await freshPostgres();
    await expect(
      copyDatabase(
        { kind: 'sqlite', file: path.join(os.tmpdir(), 'no-such-dir', 'none.db') },
        { kind: 'postgres', url, poolSize: 2 },
        { sessions: false },
      ),
    ).rejects.toThrow(CopyRefused);
    const missing = await dbCopy(['--from', '/nonexistent/clients-manager.db', '--to', url]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^Not copied: Cannot open the source/m);
  });

  it('refuses databases whose tables or columns differ, and names them', async () => {
    const url = await freshPostgres();
    const to = { kind: 'postgres', url, poolSize: 2 } as const;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-copy-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    /** A migrated SQLite database, changed by hand after its migrations. */
    const changed = async (name: string, ...statements: string[]) => {
      const file = path.join(dir, name);
      const db = openDatabase({ kind: 'sqlite', file });
      await migrateToLatest(db);
      for (const statement of statements) await sql.raw(statement).execute(db.kysely);
      await db.close();
      return { kind: 'sqlite', file } as const;
    };
    const refused = (message: RegExp) => ({
      name: 'CopyRefused',
      message: expect.stringMatching(message),
    });

    const extraColumn = await changed('column.db', 'alter table "client" add column "extra" text');
    await expect(copyDatabase(extraColumn, to, { sessions: false })).rejects.toMatchObject(
      refused(/client\.extra only in the source/),
    );
    const otherKind = await changed(
      'kind.db',
      'alter table "client" drop column "version"',
      'alter table "client" add column "version" text',
    );
    await expect(copyDatabase(otherKind, to, { sessions: false })).rejects.toMatchObject(
      refused(/client\.version text in the source, integer in the target/),
    );
    const extraTable = await changed('table.db', 'create table "note" ("id" text)');
    await expect(copyDatabase(extraTable, to, { sessions: false })).rejects.toMatchObject(
      refused(/^The source database has table note, which this version does not know/),
    );

    // Refused before anything was written: the target is still empty and takes a copy.
    const copy = await copyDatabase({ kind: 'sqlite', file: sourceFile }, to, { sessions: false });
    expect(copy.verified).toBe(true);
  });
});
