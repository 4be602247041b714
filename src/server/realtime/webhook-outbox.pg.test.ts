import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_HEADER, type WebhookCreated, type WebhookPayload } from '#shared/webhooks.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import {
  Session,
  signUpVerified,
  startTestServer,
  type TestServer,
} from '#server/testing/test-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';

/**
 * Two instances of the app on one PostgreSQL database, both running the outbox: every event is
 * delivered to every endpoint exactly once, in order, however the writes and the wake-ups are
 * spread over the two. Without the endpoint's lock both instances would send its oldest pending
 * delivery, and receivers would see it twice.
 */
let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
let a: TestServer;
let b: TestServer;
const receivers: WebhookReceiver[] = [];

const TIMINGS = {
  retryDelayMs: 40,
  maxRetryDelayMs: 160,
  timeoutMs: 2_000,
  pollMs: 50,
  pruneEveryMs: 50,
};
/** Both instances' log lines, for what each reports of deleting old deliveries. */
const logLines: string[] = [];
const logStream = { write: (line: string) => logLines.push(line) };

beforeAll(async () => {
  database = await createTestPostgresDatabase();
  const env = {
    DATABASE_URL: database.url,
    SECRET_KEY: 'webhook-outbox-instances-key-'.repeat(2),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'info',
  };
  [a, b] = await Promise.all([
    startTestServer(env, { webhooks: TIMINGS, logStream }),
    startTestServer(env, { webhooks: TIMINGS, logStream }),
  ]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  for (const r of receivers) await r.close();
  await database.drop();
});

function on(server: TestServer, session: Session): Session {
  const moved = new Session(server);
  for (const [name, value] of session.cookies) moved.cookies.set(name, value);
  return moved;
}

describe('the webhook outbox on several instances', () => {
  it('delivers each event once per endpoint, in order, whichever instance wrote it', async () => {
    const onA = await signUpVerified(a, { name: 'Hooks on two' });
    const onB = on(b, onA);
    // Three endpoints; receivers that take a little time, so both instances are often busy
    // with the same endpoint's queue at once.
    const hooks: { id: string; receiver: WebhookReceiver }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const receiver = await new WebhookReceiver(() => ({ status: 200, afterMs: 5 })).start();
      receivers.push(receiver);
      const made = await (i % 2 === 0 ? onA : onB).json<WebhookCreated>('POST', '/api/webhooks', {
        url: receiver.url(),
        events: ['client.created'],
      });
      expect(made.status).toBe(201);
      hooks.push({ id: made.body.webhook.id, receiver });
    }
    // 40 clients, written through both instances at once.
    const WRITES = 40;
    await Promise.all(
      Array.from({ length: WRITES }, async (_, i) => {
        const made = await (i % 2 === 0 ? onA : onB).json('POST', '/api/clients', {
          name: `Twice ${i}`,
        });
        expect(made.status).toBe(201);
      }),
    );
    for (const { receiver } of hooks) {
      await receiver.waitFor(WRITES);
      const seqs = receiver.bodies<WebhookPayload>().map((body) => body.event.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(WRITES);
      const ids = receiver.received.map((got) => got.headers[DELIVERY_HEADER]);
      expect(new Set(ids).size).toBe(WRITES);
    }
    // Every delivery recorded as made, once: no second attempt of any, by either instance. (The
    // last answers may be a moment ahead of their records.)
    const read = () =>
      a.app.parts.db.kysely
        .selectFrom('webhookDelivery')
        .select(['webhookId', 'status', 'attempts'])
        .execute();
    let rows = await read();
    while (rows.some((row) => row.status === 'pending')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await read();
    }
    expect(rows).toHaveLength(WRITES * hooks.length);
    expect(rows.every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
    // Nothing more arrived meanwhile: each receiver has exactly one request per event.
    for (const { receiver } of hooks) expect(receiver.received).toHaveLength(WRITES);
  }, 60_000);

  it('deletes old finished deliveries once, both instances pruning, neither failing', async () => {
    const { kysely } = a.app.parts.db;
    const template = await kysely
      .selectFrom('webhookDelivery')
      .selectAll()
      .where('status', '=', 'delivered')
      .limit(1)
      .executeTakeFirstOrThrow();
    const before = await kysely
      .selectFrom('webhookDelivery')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    // Past the 30 days that finished deliveries are kept: several batches' worth.
    const old = new Date(Date.now() - 31 * 24 * 60 * 60_000).toISOString();
    const OLD = 2_000;
    await kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < OLD; i += 100) {
        const rows = Array.from({ length: 100 }, () => ({
          ...template,
          id: newRecordId(),
          eventSeq: Number(template.eventSeq),
          createdAt: old,
          firstAttemptAt: old,
          lastAttemptAt: old,
          deliveredAt: old,
        }));
        await trx.insertInto('webhookDelivery').values(rows).execute();
      }
    });
    const reported = () =>
      logLines
        .map((line) => JSON.parse(line) as { msg?: string; deleted?: number })
        .filter((entry) => entry.msg?.startsWith('webhook outbox deleted deliveries'))
        .reduce((sum, entry) => sum + (entry.deleted ?? 0), 0);
    const deadline = Date.now() + 10_000;
    while (reported() < OLD && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reported()).toBe(OLD);
    const after = await kysely
      .selectFrom('webhookDelivery')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(logLines.filter((line) => line.includes('could not delete old deliveries'))).toEqual([]);
  }, 60_000);
});
