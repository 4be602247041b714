import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientList } from '#shared/clients.ts';
import type { WebhookCreated, WebhookPayload } from '#shared/webhooks.ts';
import { createTestPostgresDatabase } from '#server/testing/test-database.ts';
import { signUpVerified, startTestServer, type TestServer } from '#server/testing/test-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';

/**
 * DATABASE_POOL_SIZE may be as small as 1. An endpoint's turn on PostgreSQL holds its lock on a
 * connection of the pool: the deliveries must go through that same connection, or with the pool
 * used up by the lock they wait for a connection that never comes (and every request with them).
 */
let database: Awaited<ReturnType<typeof createTestPostgresDatabase>>;
let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await createTestPostgresDatabase();
  server = await startTestServer(
    {
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '1',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    { webhooks: { pollMs: 50, retryDelayMs: 40, maxRetryDelayMs: 160, timeoutMs: 2_000 } },
  );
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await database?.drop();
});

describe('the webhook outbox with a pool of one connection', () => {
  it('delivers, and the requests go on being answered', async () => {
    const staff = await signUpVerified(server, { name: 'Small pool' });
    const made = await staff.json<WebhookCreated>('POST', '/api/webhooks', {
      url: receiver.url(),
      events: ['client.created'],
    });
    expect(made.status).toBe(201);
    for (let i = 0; i < 3; i += 1) {
      const created = await staff.json('POST', '/api/clients', { name: `Pooled ${i}` });
      expect(created.status).toBe(201);
      const list = await staff.json<ClientList>('GET', '/api/clients');
      expect(list.status).toBe(200);
    }
    // Before, the lock's turn waited 5 s for a second connection, failed, and started again,
    // delivering nothing however long one waited (and the creates above were answered 503).
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(3);
    const kinds = receiver.bodies<WebhookPayload>().map((body) => body.event.kind);
    expect(kinds).toEqual(['client.created', 'client.created', 'client.created']);
  });
});
