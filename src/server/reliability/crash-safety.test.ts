import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientList } from '#shared/clients.ts';
import { clientEventSchema, STREAM_READY_EVENT } from '#shared/events.ts';
import { MailCatcher } from '#server/testing/mail-catcher.ts';
import { serverPort } from '#server/testing/free-port.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { testDatabaseEnv, testDialect } from '#server/testing/test-database.ts';
import { spawnServer, type ServerProcess } from '#server/testing/spawn-server.ts';
import {
  expectedFields,
  randomClientBody,
  storedFields,
  type ClientBody,
} from './random-client.ts';

/** Kill cycles per database (issue 7 asks for at least 20). */
const KILLS = 20;
/** Writers with one request in flight each: creates and updates of their own clients. */
const WRITERS = 40;
/**
 * A bound for a hang, not for speed: the test starts the server 21 times, and beside the other
 * suites on a slow 2-core machine that took most of the old bound of 240 s
 * (docs/decisions/0009-test-suite-time.md).
 */
const TIMEOUT_MS = 480_000;

type Fields = ReturnType<typeof expectedFields>;

interface Tracked {
  id: string;
  /** What the server acknowledged last (or what the check after a restart found). */
  fields: Fields;
  /** An update sent but not answered when the server died: it may or may not be saved. */
  pending?: Fields;
}

/**
 * Issue 7, item 1: the real server as a child process under concurrent creates and updates,
 * killed with SIGKILL mid-stream and started again, KILLS times. After each restart every write
 * that was answered 2xx is there field by field at its version, a write that got no answer is
 * either wholly there or not at all, and the event log replayed from the last check is
 * contiguous with exactly one event per saved write. SQLite runs with WAL and
 * synchronous=FULL: a commit is flushed to disk before it is answered, so neither a killed
 * process nor a power cut loses it (this test can only show the first).
 */
describe(`crash safety (${testDialect()})`, () => {
  let mail: MailCatcher;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof testDatabaseEnv>>;
  let env: Record<string, string> & { DATA_DIR: string };
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    mail = await new MailCatcher().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-crash-'));
    database = await testDatabaseEnv();
    env = {
      DATA_DIR: dataDir,
      SMTP_URL: mail.url,
      ...database.env,
    };
  });
  afterAll(async () => {
    await server?.kill();
    await mail.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `loses no acknowledged write and leaves no gap in the event log over ${KILLS} SIGKILLs`,
    async (context) => {
      // Each start takes a new port: the old one, free since the kill, could have been handed
      // to another test's server meanwhile. The session follows the address.
      const address = { url: '', mail };
      const start = async () => {
        // A start takes 4 to 7 s here beside the other suites and once took more than the
        // usual 20 s bound: a hang is what this bound is for, and TIMEOUT_MS covers the rest.
        const started = await spawnServer(
          { ...env, PORT: String(await serverPort()) },
          { readyTimeoutMs: 60_000 },
        );
        address.url = started.url;
        return started;
      };
      server = await start();
      const session: Session = await signUpVerified(address);
      // A clean stop writes Node's compile cache (spawn-server.ts) that the restarts then use.
      await server.stop();
      server = await start();

      const tracked = new Map<string, Tracked>();
      /** Creates sent but not answered, by their unique name. */
      const pendingCreates = new Map<string, { writer: number; fields: Fields }>();
      const owned: string[][] = Array.from({ length: WRITERS }, () => []);
      const refused: string[] = [];
      /** Events per client id, over every cycle checked so far. */
      const eventsOf = new Map<string, number>();
      let head = 0;
      let acknowledged = 0;
      let unanswered = 0;
      let sent = 0;
      const timings = { writing: 0, restarting: 0, checking: 0 };

      for (let cycle = 1; cycle <= KILLS; cycle += 1) {
        const running = server;
        // Kill somewhere in the middle of the stream, with every writer's request in flight.
        const killAfter = 50 + randomInt(120);
        let acked = 0;
        const ack = () => {
          acked += 1;
          if (acked === killAfter) running.child.kill('SIGKILL');
        };

        const writer = async (w: number): Promise<void> => {
          for (let n = 0; ; n += 1) {
            const mine = owned[w]!;
            const create = mine.length === 0 || randomInt(10) < 4;
            sent += 1;
            if (create) {
              const name = `c${cycle}-w${w}-${n}`;
              const body = randomClientBody(name, { password: randomInt(2) === 0 });
              const fields = expectedFields(body, false, 1);
              pendingCreates.set(name, { writer: w, fields });
              const answer = await send(session, 'POST', '/api/clients', body);
              if (answer === 'unanswered') return;
              if (answer.status !== 201) {
                refused.push(`create ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
                return;
              }
              pendingCreates.delete(name);
              expect(storedFields(answer.body)).toEqual(fields);
              tracked.set(answer.body.id, { id: answer.body.id, fields });
              mine.push(answer.body.id);
            } else {
              const t = tracked.get(mine[randomInt(mine.length)]!)!;
              const passwordChoice = randomInt(3);
              const body: ClientBody = randomClientBody(`u${cycle}-w${w}-${n}`, {
                password: passwordChoice === 0,
              });
              if (passwordChoice === 1) body.server.password = '';
              const fields = expectedFields(
                body,
                t.fields.server.hasPassword,
                t.fields.version + 1,
              );
              t.pending = fields;
              const answer = await send(session, 'PUT', `/api/clients/${t.id}`, {
                ...body,
                version: t.fields.version,
              });
              if (answer === 'unanswered') return;
              if (answer.status !== 200) {
                refused.push(`update ${t.id}: ${answer.status} ${JSON.stringify(answer.body)}`);
                return;
              }
              expect(storedFields(answer.body)).toEqual(fields);
              t.fields = fields;
              t.pending = undefined;
            }
            acknowledged += 1;
            ack();
          }
        };
        const writesStarted = performance.now();
        await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
        const killed = performance.now();
        expect(await running.exited).toBe('SIGKILL');
        expect(refused).toEqual([]);

        server = await start();
        const restarted = performance.now();

        // Every acknowledged write is there, whole; an unanswered one is wholly there or not.
        const { status, body } = await session.json<ClientList>('GET', '/api/clients');
        expect(status).toBe(200);
        const stored = new Map<string, Client>(body.clients.map((c) => [c.id, c]));
        for (const t of tracked.values()) {
          const client = stored.get(t.id);
          expect(client, `acknowledged client ${t.id} (cycle ${cycle})`).toBeDefined();
          const found = storedFields(client!);
          if (t.pending && isDeepStrictEqual(found, t.pending)) t.fields = t.pending;
          else expect(found, `client ${t.id} after kill ${cycle}`).toEqual(t.fields);
          if (t.pending) unanswered += 1;
          t.pending = undefined;
        }
        for (const client of body.clients) {
          if (tracked.has(client.id)) continue;
          const pending = pendingCreates.get(client.name);
          expect(pending, `an unexpected client ${client.name} (cycle ${cycle})`).toBeDefined();
          expect(storedFields(client)).toEqual(pending!.fields);
          tracked.set(client.id, { id: client.id, fields: pending!.fields });
          owned[pending!.writer]!.push(client.id);
        }
        unanswered += pendingCreates.size;
        pendingCreates.clear();
        expect(stored.size).toBe(tracked.size);

        // The event log after the last check, replayed by the restarted server: no gap, and one
        // event per saved write (a client at version v has had v writes: its create and updates).
        const stream = await openEventStream(server.url, session.cookieHeader, String(head));
        const frames = await stream.until(STREAM_READY_EVENT, 15_000);
        stream.close();
        const events = frames.slice(0, -1).map((f) => clientEventSchema.parse(JSON.parse(f.data)));
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => head + 1 + i));
        expect(frames.map((f) => f.id).slice(0, -1)).toEqual(events.map((e) => String(e.seq)));
        const ready = JSON.parse(frames.at(-1)!.data) as { seq: number };
        expect(ready.seq).toBe(head + events.length);
        head = ready.seq;
        timings.writing += killed - writesStarted;
        timings.restarting += restarted - killed;
        timings.checking += performance.now() - restarted;
        for (const event of events) {
          expect(['client.created', 'client.updated']).toContain(event.kind);
          eventsOf.set(event.clientId!, (eventsOf.get(event.clientId!) ?? 0) + 1);
        }
        for (const t of tracked.values()) {
          expect(eventsOf.get(t.id) ?? 0, `events of client ${t.id}`).toBe(t.fields.version);
        }
      }

      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      await context.annotate(
        `crash safety on ${testDialect()}: ${KILLS} SIGKILLs survived; ${sent} writes sent, ${acknowledged} acknowledged (all found intact), ${unanswered} unanswered at a kill (each whole or absent); ${tracked.size} clients; event log 1..${head} without a gap. Writing ${s(timings.writing)}, restarting ${s(timings.restarting)}, checking ${s(timings.checking)}.`,
        'measurement',
      );
      expect(head).toBe([...tracked.values()].reduce((sum, t) => sum + t.fields.version, 0));
    },
    TIMEOUT_MS,
  );
});

/** A request whose answer is lost when the server dies comes back as 'unanswered'. */
async function send(
  session: Session,
  method: string,
  url: string,
  body: unknown,
): Promise<{ status: number; body: Client } | 'unanswered'> {
  try {
    return await session.json<Client>(method, url, body);
  } catch {
    return 'unanswered';
  }
}
