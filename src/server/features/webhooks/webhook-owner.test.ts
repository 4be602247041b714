import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Me } from '#shared/account.ts';
import type { Webhook, WebhookCreated, WebhookPayload } from '#shared/webhooks.ts';
import type { Session } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';

/**
 * An endpoint speaks for the administrator who made or last saved it: one who leaves (disabled,
 * demoted, or left out by the allowlists) must not keep a feed of the log at an address of
 * their choosing. Staff addresses are at example.test, which the list lets in.
 */
const t = serveThisFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', ALLOWED_EMAIL_DOMAINS: 'example.test' },
  start: { webhooks: { pollMs: 100 } },
  staff: {
    admin: { name: 'Staying Admin', role: 'admin' },
    leaver: { name: 'Leaving Admin', role: 'admin' },
    contractor: { name: 'Contractor Admin', role: 'admin' },
  },
});

const r = new WebhookReceiver();
beforeAll(async () => {
  await r.start();
});
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

  it('is paused while the allowlists leave its owner out', async () => {
    const made = await t.staff.contractor.json<WebhookCreated>('POST', '/api/webhooks', {
      url: r.url('/contractor'),
      events: ['client.created'],
    });
    expect(made.status).toBe(201);
    const id = made.body.webhook.id;
    // The first test's endpoint, saved by the staying admin, hears at /hook meanwhile.
    const atContractor = () => r.received.filter((got) => got.path === '/contractor');
    const first = await newClient('Heard Ltd');
    await passed(id, first);
    await vi.waitFor(() => expect(atContractor()).toHaveLength(1), { timeout: 30_000 });
    const heard = JSON.parse(atContractor()[0]!.body.toString('utf8')) as WebhookPayload;
    expect(heard.event.seq).toBe(first);

    // As the lists narrowed at the next start leave them: their address is no longer let in.
    const { kysely } = t.server.app.parts.db;
    const { id: contractorId, email } = (await t.staff.contractor.json<Me>('GET', '/api/me')).body;
    const setEmail = (address: string) =>
      kysely.updateTable('user').set({ email: address }).where('id', '=', contractorId).execute();
    await setEmail('contractor@outside.test');
    try {
      expect(await hook(id)).toMatchObject({ enabled: true, paused: true });
      const unheard = await newClient('Unheard Ltd');
      await passed(id, unheard);
      const deliveries = await kysely
        .selectFrom('webhookDelivery')
        .select('id')
        .where('webhookId', '=', id)
        .where('eventSeq', '>=', unheard)
        .execute();
      expect(deliveries).toEqual([]);
      expect(atContractor()).toHaveLength(1);
    } finally {
      await setEmail(email);
    }
    expect(await hook(id)).toMatchObject({ paused: false });
  });
});
