import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { newRecordId, newRecordStamps } from '#server/db/record-id.ts';
import { SecretBox } from '#server/secrets.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { runningRunRow } from '#server/testing/app-records.ts';
import { DeployTokens } from '#server/features/account/deploy-tokens.ts';
import { ClientRepository } from '#server/features/clients/client-repository.ts';
import { RunManager } from './run-manager.ts';

// On PostgreSQL an instance takes a run whose heartbeat is three intervals old for lost, and
// its owner, finding it marked so, stops the command. After an outage every instance's
// heartbeats are late at once: the first to reach the database again must not sweep the runs
// of the others, which are still running their commands.
const HEARTBEAT_MS = 200;

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let runId: string;
/** What this instance's queries meet: the database, or none (an outage). */
const link = { down: false, passed: 0 };
const warnings: string[] = [];
let manager: RunManager;

beforeAll(async () => {
  opened = await openTestDatabase();
  const { db } = opened;
  const box = new SecretBox(randomBytes(32).toString('hex'));
  const actor = { id: 'sweep-person', name: 'sweep@example.test' };
  const at = new Date().toISOString();
  await db.kysely
    .insertInto('user')
    .values(verifiedUserRow(db.dialect, actor.id, at, { name: 'Sweep', email: actor.name }))
    .execute();
  const client = await new ClientRepository(db, box, () => undefined).create(
    {
      name: 'Sweep Co',
      code: 'SWP',
      description: '',
      tags: [],
      domains: [],
      server: { host: '', port: 22, username: '', private: true, uiDir: '' },
    },
    actor,
  );
  const appId = newRecordId();
  await db.kysely
    .insertInto('app')
    .values({
      id: appId,
      clientId: client.id,
      serverId: null,
      name: 'web',
      directory: '',
      domains: '[]',
      command: null,
      ...newRecordStamps(actor, at),
    })
    .execute();
  const run = runningRunRow(
    db.dialect,
    { appId, clientId: client.id, serverId: null, startedBy: actor, command: 'deploy' },
    at,
  );
  runId = run.id;
  await db.kysely.insertInto('run').values(run).execute();

  const outage: KyselyPlugin = {
    transformQuery(args) {
      if (link.down) throw new Error('connect ECONNREFUSED (a test outage)');
      return args.node;
    },
    transformResult(args) {
      link.passed += 1;
      return Promise.resolve(args.result);
    },
  };
  const seen: Db = {
    kysely: db.kysely.withPlugin(outage),
    dialect: db.dialect,
    close: () => Promise.resolve(),
  };
  const log = {
    warn: (_details: object, message: string) => warnings.push(message),
    info: () => undefined,
    error: () => undefined,
  } as unknown as FastifyBaseLogger;
  manager = new RunManager({
    db: seen,
    box,
    tokens: new DeployTokens(db.kysely, box),
    defaultCommand: 'true',
    onCommitted: () => undefined,
    log,
    timings: { heartbeatMs: HEARTBEAT_MS },
  });
  await manager.open();
});
afterAll(async () => {
  await manager?.close();
  await opened?.close();
});

async function runState(): Promise<string> {
  const row = await opened.db.kysely
    .selectFrom('run')
    .select('state')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  return row.state;
}

/** Sets the run's heartbeat `ago` ms back, as its owner last wrote it. */
async function heartbeat(ago: number): Promise<void> {
  await opened.db.kysely
    .updateTable('run')
    .set({ heartbeatAt: new Date(Date.now() - ago).toISOString() })
    .where('id', '=', runId)
    .execute();
}

/** Waits until this instance's queries reached the database `count` more times. */
async function queriesPass(count: number): Promise<void> {
  const until = link.passed + count;
  await expect
    .poll(() => link.passed, { timeout: 10_000, interval: 10 })
    .toBeGreaterThanOrEqual(until);
}

describe('the sweep of lost runs after an outage (postgres)', () => {
  it("waits as many heartbeats as a run may miss before it takes another instance's run for lost", async () => {
    // The database goes away: this instance's heartbeats fail, and so do the run owner's.
    link.down = true;
    await expect.poll(() => warnings.length, { timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
    await heartbeat(60_000);
    // Back: the owner's next heartbeat comes within one interval, as this instance's does.
    link.down = false;
    await queriesPass(1);
    expect(await runState()).toBe('running');
    const owner = setInterval(() => void heartbeat(0), HEARTBEAT_MS);
    try {
      await queriesPass(6);
      expect(await runState()).toBe('running');
    } finally {
      clearInterval(owner);
    }

    // A run whose owner stays silent is still taken for lost, once this instance is steady.
    await heartbeat(60_000);
    await expect.poll(runState, { timeout: 10_000, interval: 20 }).toBe('interrupted');
  });
});
