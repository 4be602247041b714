import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Me } from '#shared/account.ts';
import type { Webhook, WebhookCreated, WebhookPayload } from '#shared/webhooks.ts';
import type { Session } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';

/**
 * An endpoint speaks for the administrator who made or last saved it: one who leaves (disabled
 * or demoted) must not keep a feed of the log at an address of their choosing.
 */
const t = serveThisFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
  start: { webhooks: { pollMs: 100 } },
  staff: {
    admin: { name: 'Staying Admin', role: 'admin' },
    leaver: { name: 'Leaving Admin', role: 'admin' },
  },
});

const r = new WebhookReceiver();
afterAll(async () => r.close());

async function idOf(session: Session): Promise<string> {
  return (await session.json<Me>('GET', '/api/me')).body.id;
}

async function newClient(name: string): Promise<number> {
  expect((await t.staff.admin.json('POST', '/api/clients', { name })).status).toBe(201);
  const { kysely } = t.server.app.parts.db;
  const head = await kysely
    .selectFrom('event')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirstOrThrow();
  return Number(head.seq);
}

/** The endpoint's cursor has passed `seq`: the outbox has decided about that event. */
async function passed(hookId: string, seq: number): Promise<void> {
  const { kysely } = t.server.app.parts.db;
  await vi.waitFor(
    async () => {
      const row = await kysely
        .selectFrom('webhook')
        .select('cursor')
        .where('id', '=', hookId)
        .executeTakeFirstOrThrow();
      expect(Number(row.cursor)).toBeGreaterThanOrEqual(seq);
    },
    { timeout: 30_000, interval: 20 },
  );
}

async function hook(id: string): Promise<Webhook> {
  const list = await t.staff.admin.json<{ webhooks: Webhook[] }>('GET', '/api/webhooks');
  return list.body.webhooks.find((w) => w.id === id)!;
}

describe('an endpoint whose owner leaves', () => {
  it('is paused while they are not an enabled administrator, until another saves it', async () => {
    await r.start();
    const made = await t.staff.leaver.json<WebhookCreated>('POST', '/api/webhooks', {
      url: r.url(),
      events: ['client.created'],
    });
    expect(made.status).toBe(201);
    const id = made.body.webhook.id;
    const leaverEmail = (await t.staff.leaver.json<Me>('GET', '/api/me')).body.email;
    expect(made.body.webhook).toMatchObject({ owner: leaverEmail, paused: false });
    const before = await newClient('Before Ltd');
    await r.waitFor(1);

    const leaverId = await idOf(t.staff.leaver);
    const person = `/api/people/${leaverId}`;
    expect((await t.staff.admin.json('PATCH', person, { role: 'editor' })).status).toBe(200);
    expect(await hook(id)).toMatchObject({ owner: leaverEmail, enabled: true, paused: true });
    expect((await t.staff.admin.json('PATCH', person, { role: 'admin' })).status).toBe(200);
    expect(await hook(id)).toMatchObject({ paused: false });
    expect((await t.staff.admin.json('PATCH', person, { disabled: true })).status).toBe(200);
    expect(await hook(id)).toMatchObject({ owner: leaverEmail, enabled: true, paused: true });
    await passed(id, await newClient('While Paused Ltd'));

    const saved = await t.staff.admin.json<Webhook>('PATCH', `/api/webhooks/${id}`, {
      enabled: true,
    });
    expect(saved.status).toBe(200);
    const adminEmail = (await t.staff.admin.json<Me>('GET', '/api/me')).body.email;
    expect(saved.body).toMatchObject({ owner: adminEmail, paused: false });
    const after = await newClient('After Ltd');
    await r.waitFor(2);
    expect(r.bodies<WebhookPayload>().map((body) => body.event.seq)).toEqual([before, after]);
  });
});
