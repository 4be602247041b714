import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientList } from '#shared/clients.ts';
import { clientEventSchema, STREAM_READY_EVENT } from '#shared/events.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { testDatabaseEnv, testDialect } from '#server/testing/test-database.ts';
import { runScript } from '#server/testing/run-script.ts';
import {
  expectedFields,
  randomClientBody,
  storedFields,
} from '#server/reliability/random-client.ts';

type Fields = ReturnType<typeof expectedFields>;

/** Runs an npm command's script as an operator would; resolves with its exit code and output. */
const run = (script: string, args: string[], env: Record<string, string>) =>
  runScript(script, args, { env });

/** The per-table rows and checksums of a backup or restore report. */
function checksums(out: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of out.matchAll(/^(\w+)\s+(\d+)\s+(\d+)\s+([0-9a-f]{16})\s+ok$/gm)) {
    found[match[1]!] = `${match[2]} rows ${match[4]}`;
  }
  return found;
}

describe(`npm run backup / restore (${testDialect()})`, () => {
  let server: TestServer;
  let session: Session;
  let dir: string;
  let restoredDb: Awaited<ReturnType<typeof testDatabaseEnv>>;

  beforeAll(async () => {
    server = await startTestServer();
    session = await signUpVerified(server, { email: 'backup@example.test' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-backup-'));
    restoredDb = await testDatabaseEnv();
  });
  afterAll(async () => {
    await server.close();
    await restoredDb.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while writes go on and restores the same clients, users and event log', async () => {
    expect(
      (await session.json('PUT', '/api/me/access-token', { accessToken: 'tok-1' })).status,
    ).toBe(200);
    const gone = await session.json<Client>('POST', '/api/clients', { name: 'Deleted one' });
    expect((await session.json('DELETE', `/api/clients/${gone.body.id}`)).status).toBe(204);

    // Writers keep creating and updating; every state each client was written in is kept, so
    // whatever moment the backup caught, each restored client must be one of them.
    const written = new Map<string, Map<number, Fields>>([[gone.body.id, new Map()]]);
    const passwords = new Map<string, string>();
    let acked = 0;
    let stop = false;
    const writer = async (w: number) => {
      const mine: Client[] = [];
      for (let n = 0; !stop; n += 1) {
        const i = randomInt(Math.max(1, mine.length));
        const body = randomClientBody(`b-w${w}-${n}`, { password: true });
        const previous = mine[i];
        const { status, body: client } =
          previous && randomInt(2) === 0
            ? await session.json<Client>('PUT', `/api/clients/${previous.id}`, {
                ...body,
                version: previous.version,
              })
            : await session.json<Client>('POST', '/api/clients', body);
        expect([200, 201]).toContain(status);
        const versions = written.get(client.id) ?? new Map<number, Fields>();
        versions.set(client.version, expectedFields(body, true, client.version));
        written.set(client.id, versions);
        passwords.set(`${client.id}@${client.version}`, body.server.password!);
        if (status === 201) mine.push(client);
        else mine[i] = client;
        acked += 1;
      }
    };
    const writers = Array.from({ length: 6 }, (_, w) => writer(w));
    while (acked < 60) await new Promise((r) => setTimeout(r, 10));

    const ackedBefore = acked;
    // What was answered before the backup started: it must all be in the backup.
    const before = new Map([...written].map(([id, v]) => [id, Math.max(0, ...v.keys())]));
    const file = path.join(dir, 'clients-manager.backup.db');
    const backup = await run('src/server/cli/backup.ts', ['--out', file], {
      DATA_DIR: server.dataDir,
      ...server.databaseEnv,
    });
    const ackedDuring = acked - ackedBefore;
    stop = true;
    await Promise.all(writers);
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/Backup verified/);
    expect(ackedDuring, 'writes went on during the backup').toBeGreaterThan(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const snapshot = checksums(backup.out);
    expect(Object.keys(snapshot)).toEqual(
      expect.arrayContaining(['user', 'account', 'session', 'deployToken', 'client', 'event']),
    );
    expect(snapshot.deletedClient).toMatch(/^1 rows/);

    // Into a fresh data folder (SQLite) or a new, empty database (PostgreSQL).
    const restoredDir = path.join(dir, 'restored');
    const target =
      testDialect() === 'postgres'
        ? ['--database-url', restoredDb.env.DATABASE_URL!]
        : ['--data-dir', restoredDir];
    const restore = await run('src/server/cli/restore.ts', [file, ...target], {});
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    expect(checksums(restore.out)).toEqual(snapshot);

    // A restore never writes over data.
    const again = await run('src/server/cli/restore.ts', [file, ...target], {});
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/not empty/);

    // The restored installation, started with the same key, serves the same data to the same
    // (restored) session.
    fs.mkdirSync(restoredDir, { recursive: true });
    fs.copyFileSync(path.join(server.dataDir, 'secret.key'), path.join(restoredDir, 'secret.key'));
    const restored = await startTestServer({ DATA_DIR: restoredDir, ...restoredDb.env });
    try {
      const there = new Session(restored);
      for (const [name, value] of session.cookies) there.cookies.set(name, value);
      const { status, body } = await there.json<ClientList>('GET', '/api/clients');
      expect(status).toBe(200);
      expect(`${body.clients.length} rows`).toBe(snapshot.client!.split(' ').slice(0, 2).join(' '));

      // A consistent moment: each client exactly as one write left it, with exactly one event
      // per write it had, and every write answered before the backup started is in.
      const stream = await openEventStream(restored.url, there.cookieHeader, '0');
      const frames = await stream.until(STREAM_READY_EVENT, 10_000);
      stream.close();
      const events = frames.slice(0, -1).map((f) => clientEventSchema.parse(JSON.parse(f.data)));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(`${events.length} rows`).toBe(snapshot.event!.split(' ').slice(0, 2).join(' '));
      const eventsOf = new Map<string, number>();
      for (const e of events) eventsOf.set(e.clientId!, (eventsOf.get(e.clientId!) ?? 0) + 1);
      for (const client of body.clients) {
        const versions = written.get(client.id);
        expect(versions, `client ${client.name}`).toBeDefined();
        expect(storedFields(client)).toEqual(versions!.get(client.version));
        expect(eventsOf.get(client.id)).toBe(client.version);
      }
      expect(eventsOf.get(gone.body.id)).toBe(2); // created, deleted
      const restoredVersion = new Map(body.clients.map((c) => [c.id, c.version]));
      for (const [id, version] of before) {
        if (id === gone.body.id) continue;
        expect(restoredVersion.get(id) ?? 0, `client ${id}`).toBeGreaterThanOrEqual(version);
      }

      // Secrets sealed under the key, deploy token, deleted client kept for undo, and users
      // with their passwords all came back.
      const sample = body.clients.at(-1)!;
      const secret = await there.json<{ password: string }>(
        'GET',
        `/api/clients/${sample.id}/password`,
      );
      expect(secret.body.password).toBe(passwords.get(`${sample.id}@${sample.version}`));
      const me = await there.json<{ accessToken: { isSet: boolean } }>('GET', '/api/me');
      expect(me.body.accessToken.isSet).toBe(true);
      expect((await there.json('POST', `/api/clients/${gone.body.id}/restore`)).status).toBe(200);
      const signIn = await new Session(restored).json('POST', '/api/auth/sign-in/email', {
        email: 'backup@example.test',
        password: 'correct horse battery',
      });
      expect(signIn.status).toBe(200);
    } finally {
      await restored.close();
    }
    // Two commands start as child processes while six writers keep the server busy.
  }, 90_000);
});
