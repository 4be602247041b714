import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVERY_HEADER,
  type WebhookCreated,
  type WebhookDeliveryPage,
  type WebhookPayload,
} from '#shared/webhooks.ts';
import { MailCatcher } from '#server/testing/mail-catcher.ts';
import { serverPort } from '#server/testing/free-port.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { testDatabaseEnv, testDialect } from '#server/testing/test-database.ts';
import { spawnServer, type ServerProcess } from '#server/testing/spawn-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';

/**
 * A delivery survives a SIGKILL of the server between the commit of its event and the answer
 * to its POST: the real server runs as a child process, the receiver holds the first POST
 * unanswered, the server is killed while it waits, and the restarted server makes the same
 * delivery again (the same delivery id, the same event) and records it delivered.
 */
describe(`a webhook delivery across a SIGKILL (${testDialect()})`, () => {
  let mail: MailCatcher;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof testDatabaseEnv>>;
  let receiver: WebhookReceiver;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    mail = await new MailCatcher().start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-hook-crash-'));
    database = await testDatabaseEnv();
    receiver = await new WebhookReceiver(() => 'hold').start();
  });
  afterAll(async () => {
    await server?.kill();
    await receiver.close();
    await mail.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is made again by the restarted server, once, and recorded delivered', async () => {
    const address = { url: '', mail };
    const start = async () => {
      const started = await spawnServer({
        DATA_DIR: dataDir,
        SMTP_URL: mail.url,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ...database.env,
        PORT: String(await serverPort()),
      });
      address.url = started.url;
      return started;
    };
    server = await start();
    const admin: Session = await signUpVerified(address);
    const made = await admin.json<WebhookCreated>('POST', '/api/webhooks', {
      url: receiver.url(),
      events: ['client.created'],
    });
    expect(made.status).toBe(201);
    const created = await admin.json<{ id: string }>('POST', '/api/clients', { name: 'Crash Ltd' });
    expect(created.status).toBe(201);

    // The event is committed and its POST is in flight, unanswered: the process dies now.
    await receiver.waitFor(1);
    await server.kill();
    receiver.answerWith(() => 200);

    server = await start();
    await receiver.waitFor(2);
    const [first, second] = receiver.bodies<WebhookPayload>();
    expect(second).toMatchObject({ id: first!.id, event: first!.event });
    expect(second!.event).toMatchObject({ kind: 'client.created', clientId: created.body.id });
    expect(receiver.received[1]!.headers[DELIVERY_HEADER]).toBe(first!.id);

    let page: WebhookDeliveryPage;
    for (;;) {
      page = (
        await admin.json<WebhookDeliveryPage>(
          'GET',
          `/api/webhooks/${made.body.webhook.id}/deliveries`,
        )
      ).body;
      if (page.deliveries[0]?.status === 'delivered') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // The attempt the kill cut short was never recorded: one attempt, the one that answered.
    expect(page.deliveries).toHaveLength(1);
    expect(page.deliveries[0]).toMatchObject({ id: first!.id, attempts: 1, responseCode: 200 });
    // Nothing more comes: the delivery is made, and no other was queued.
    await server.stop();
    expect(receiver.received).toHaveLength(2);
  }, 120_000);
});
