import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { WebhookCreated, WebhookDelivery, WebhookDeliveryPage } from '#shared/webhooks.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';

/**
 * Finished deliveries are deleted by the outbox 30 days after their last attempt; recent ones
 * and pending ones stay. The deliveries are made to real receivers on 127.0.0.1, then their
 * times are set back in the database (the outbox reads the clock, so the rows are made old
 * rather than the clock moved), and the test waits for the outbox's own report of what it
 * deleted, at most a few seconds, before it checks what is left.
 */
const logLines: string[] = [];
const t = serveThisFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'info' },
  start: {
    logStream: { write: (line) => logLines.push(line) },
    webhooks: {
      retryDelayMs: 40,
      maxRetryDelayMs: 160,
      // The failing endpoint's delivery is failed a second after it is queued; the live one's
      // answers have two seconds each, on a loaded machine too.
      retryWindowMs: 1_000,
      timeoutMs: 2_000,
      pollMs: 50,
      pruneEveryMs: 50,
    },
  },
  staff: { admin: { name: 'Keep Admin', role: 'admin' } },
});

const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

const DAY = 24 * 60 * 60_000;
/** More old delivered rows than one batch of the prune deletes, several times over. */
const BACKLOG = 1_100;

async function deliveriesWhen(
  hookId: string,
  done: (list: WebhookDelivery[]) => boolean,
): Promise<WebhookDelivery[]> {
  for (;;) {
    const page = await t.staff.admin.json<WebhookDeliveryPage>(
      'GET',
      `/api/webhooks/${hookId}/deliveries?limit=200`,
    );
    expect(page.status).toBe(200);
    if (done(page.body.deliveries)) return page.body.deliveries;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the outbox has reported deleting so far. */
function deletedSoFar(): number {
  return logLines
    .map((line) => JSON.parse(line) as { msg?: string; deleted?: number })
    .filter((entry) => entry.msg?.startsWith('webhook outbox deleted deliveries'))
    .reduce((sum, entry) => sum + (entry.deleted ?? 0), 0);
}

describe('finished webhook deliveries', () => {
  it('are deleted 30 days after their last attempt; recent and pending ones stay', async () => {
    const admin = t.staff.admin;
    const { kysely } = t.server.app.parts.db;
    const [up, down] = await Promise.all([
      new WebhookReceiver(() => 200).start(),
      new WebhookReceiver(() => 500).start(),
    ]);
    receivers.push(up, down);
    const hook = async (body: Record<string, unknown>) => {
      const made = await admin.json<WebhookCreated>('POST', '/api/webhooks', body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.webhook.id;
    };
    const live = await hook({ url: up.url(), events: ['client.created'] });
    const dead = await hook({ url: down.url(), events: ['client.updated'] });
    // Switched off: its queued delivery waits, pending, however old.
    const held = await hook({ url: down.url(), events: ['client.created'], enabled: false });

    const clients: Client[] = [];
    for (let i = 1; i <= 4; i += 1) {
      const made = await admin.json<Client>('POST', '/api/clients', { name: `Kept ${i} Ltd` });
      expect(made.status).toBe(201);
      clients.push(made.body);
    }
    const put = await admin.json('PUT', `/api/clients/${clients[0]!.id}`, {
      name: 'Kept 1 Ltd (renamed)',
      version: 1,
    });
    expect(put.status).toBe(200);
    const queued = await admin.json<WebhookDelivery>('POST', `/api/webhooks/${held}/test`);
    expect(queued.status).toBe(202);

    const delivered = await deliveriesWhen(
      live,
      (l) => l.length === 4 && l.every((d) => d.status === 'delivered'),
    );
    const [failed] = await deliveriesWhen(dead, (l) => l[0]?.status === 'failed');
    // Oldest first: two past the 30 days, one within them, one of now.
    const [past31, past30, within29, fresh] = [...delivered].sort(
      (a, b) => a.eventSeq - b.eventSeq,
    );

    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const finishedAt = (at: string) => ({
      createdAt: at,
      firstAttemptAt: at,
      lastAttemptAt: at,
      deliveredAt: at,
    });
    const backlogIds = new Set(Array.from({ length: BACKLOG }, () => newRecordId()));
    await kysely.transaction().execute(async (trx) => {
      const setBack = async (id: string, at: string, delivered = true) => {
        const times = finishedAt(at);
        await trx
          .updateTable('webhookDelivery')
          .set(delivered ? times : { ...times, deliveredAt: null })
          .where('id', '=', id)
          .execute();
      };
      await setBack(past31!.id, ago(31 * DAY));
      await setBack(past30!.id, ago(30 * DAY + 60 * 60_000));
      await setBack(within29!.id, ago(29 * DAY));
      await setBack(failed!.id, ago(31 * DAY), false);
      // Tried 40 days ago and still pending (its endpoint is off): never deleted.
      await setBack(queued.body.id, ago(40 * DAY), false);
      // A backlog of old delivered rows, as a year without deleting would leave.
      const template = await trx
        .selectFrom('webhookDelivery')
        .selectAll()
        .where('id', '=', past31!.id)
        .executeTakeFirstOrThrow();
      const at = ago(45 * DAY);
      const backlog = [...backlogIds].map((id) => ({
        ...template,
        ...finishedAt(at),
        id,
        eventSeq: Number(template.eventSeq),
      }));
      for (let i = 0; i < backlog.length; i += 100) {
        await trx
          .insertInto('webhookDelivery')
          .values(backlog.slice(i, i + 100))
          .execute();
      }
    });

    // The outbox reports each prune's count; wait for it, a few seconds at most.
    const expected = BACKLOG + 3;
    const deadline = Date.now() + 5_000;
    while (deletedSoFar() < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }

    const left = await kysely
      .selectFrom('webhookDelivery')
      .select(['id', 'status'])
      .where('webhookId', 'in', [live, dead, held])
      .orderBy('id')
      .execute();
    const named = new Map([
      [past31!.id, 'delivered 31 days ago'],
      [past30!.id, 'delivered 30 days and an hour ago'],
      [within29!.id, 'delivered 29 days ago'],
      [fresh!.id, 'delivered now'],
      [failed!.id, 'failed 31 days ago'],
      [queued.body.id, 'pending, last tried 40 days ago'],
    ]);
    const story = left
      .filter((row) => !backlogIds.has(row.id))
      .map((row) => `${named.get(row.id) ?? row.id}: ${row.status}`)
      .sort();
    expect(story).toEqual([
      'delivered 29 days ago: delivered',
      'delivered now: delivered',
      'pending, last tried 40 days ago: pending',
    ]);
    expect(left.filter((row) => backlogIds.has(row.id)).length, 'backlog rows left').toBe(0);
    expect(deletedSoFar()).toBe(expected);
    // The screen's reads: the list and each endpoint's page of deliveries.
    const list = await admin.json<{ webhooks: { id: string; pending: number }[] }>(
      'GET',
      '/api/webhooks',
    );
    expect(list.status).toBe(200);
    expect(list.body.webhooks.find((w) => w.id === held)).toMatchObject({ pending: 1 });
    expect((await deliveriesWhen(live, () => true)).map((d) => d.id)).toEqual([
      fresh!.id,
      within29!.id,
    ]);
    expect(await deliveriesWhen(dead, () => true)).toEqual([]);
  });
});
