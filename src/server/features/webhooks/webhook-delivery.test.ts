import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookPayloadSchema,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookPayload,
} from '#shared/webhooks.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { startTestServer, signUpVerified, type Session } from '#server/testing/test-server.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';
import { clientEventSchema } from '#shared/events.ts';

/**
 * Webhook deliveries to a real HTTP receiver on 127.0.0.1 (so WEBHOOK_ALLOW_PRIVATE=true), with
 * the retry delays and the timeout shortened: each test waits for the receiver's count or the
 * delivery's recorded status, never for a fixed time.
 */
const logLines: string[] = [];
const t = serveThisFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'debug' },
  start: {
    logStream: { write: (line) => logLines.push(line) },
    webhooks: {
      retryDelayMs: 40,
      maxRetryDelayMs: 160,
      // Counted from when a delivery is queued: long enough for the burst below to drain on a
      // loaded machine before a delivery in it runs out of time, short for the tests that wait
      // for a failure. An attempt's timeout likewise: a loaded machine's answer comes within
      // it, a held one is cut off soon.
      retryWindowMs: 10_000,
      timeoutMs: 1_500,
      pollMs: 100,
    },
  },
  staff: {
    admin: { name: 'Hook Admin', role: 'admin' },
    editor: { name: 'Hook Editor', role: 'editor' },
  },
});

const receivers: WebhookReceiver[] = [];
async function receiver(...args: ConstructorParameters<typeof WebhookReceiver>) {
  const made = await new WebhookReceiver(...args).start();
  receivers.push(made);
  return made;
}
const hooks: string[] = [];
afterEach(async () => {
  // Each test's endpoints go with it: a later test's events reach none of them.
  for (const id of hooks.splice(0)) await t.staff.admin.json('DELETE', `/api/webhooks/${id}`);
  for (const r of receivers.splice(0)) await r.close();
});

async function createHook(admin: Session, body: Record<string, unknown>): Promise<WebhookCreated> {
  const made = await admin.json<WebhookCreated>('POST', '/api/webhooks', body);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  hooks.push(made.body.webhook.id);
  return made.body;
}

async function newClient(name: string): Promise<Client> {
  const made = await t.staff.admin.json<Client>('POST', '/api/clients', { name });
  expect(made.status).toBe(201);
  return made.body;
}

async function deliveries(hookId: string): Promise<WebhookDelivery[]> {
  const page = await t.staff.admin.json<WebhookDeliveryPage>(
    'GET',
    `/api/webhooks/${hookId}/deliveries?limit=200`,
  );
  expect(page.status).toBe(200);
  return page.body.deliveries;
}

/** Reads the endpoint's deliveries until `done` holds (the outbox records after each POST). */
async function deliveriesWhen(
  hookId: string,
  done: (list: WebhookDelivery[]) => boolean,
): Promise<WebhookDelivery[]> {
  for (;;) {
    const list = await deliveries(hookId);
    if (done(list)) return list;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a delivery', () => {
  it('is a JSON POST of the event, signed with the secret over the exact body', async () => {
    const r = await receiver();
    const { webhook, secret } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const client = await newClient('Signed Ltd');
    await r.waitFor(1);
    const [got] = r.received;
    const expected = `sha256=${createHmac('sha256', secret).update(got!.body).digest('hex')}`;
    expect(got!.headers[SIGNATURE_HEADER]).toBe(expected);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toBe('clients-manager-webhooks');
    expect(got!.headers[EVENT_HEADER]).toBe('client.created');
    const payload = webhookPayloadSchema.parse(JSON.parse(got!.body.toString('utf8')));
    expect(payload.event).toMatchObject({ kind: 'client.created', clientId: client.id });
    expect(got!.headers[DELIVERY_HEADER]).toBe(payload.id);
    expect(got!.headers[TIMESTAMP_HEADER]).toBe(String(payload.timestamp));
    expect(Math.abs(payload.timestamp - Date.now() / 1000)).toBeLessThan(60);
    // The event names fields, never their values.
    expect(got!.body.toString('utf8')).not.toContain('Signed Ltd');
    const [delivery] = await deliveriesWhen(webhook.id, (l) => l[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ id: payload.id, attempts: 1, responseCode: 200 });
  });

  it('is retried after 500s and after a timeout, with the same id, until a 2xx', async () => {
    // 500, 500, no answer (cut off by the timeout), then 204.
    const r = await receiver((n) => (n <= 2 ? 500 : n === 3 ? 'hold' : 204));
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    await newClient('Retried Ltd');
    await r.waitFor(4);
    const [delivery] = await deliveriesWhen(webhook.id, (l) => l[0]?.status === 'delivered');
    expect(delivery).toMatchObject({ attempts: 4, responseCode: 204, error: null });
    expect(new Set(r.received.map((got) => got.headers[DELIVERY_HEADER])).size).toBe(1);
    const list = await t.staff.admin.json<{ webhooks: { id: string; pending: number }[] }>(
      'GET',
      '/api/webhooks',
    );
    expect(list.body.webhooks.find((w) => w.id === webhook.id)).toMatchObject({
      pending: 0,
      lastDelivery: { status: 'delivered', responseCode: 204 },
    });
  });

  it('records why an attempt failed: a timeout, a status, and gives up after the window', async () => {
    const r = await receiver(() => 'hold');
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    await newClient('Silent Ltd');
    await r.waitFor(1);
    const [retrying] = await deliveriesWhen(webhook.id, (l) => (l[0]?.attempts ?? 0) >= 1);
    expect(retrying!.error).toBe('timed out after 1.5 s');
    expect(retrying!.responseCode).toBeNull();
    r.answerWith(() => 503);
    // The window is 10 s here (24 hours in production): then it is failed.
    const [failed] = await deliveriesWhen(webhook.id, (l) => l[0]?.status === 'failed');
    expect(failed).toMatchObject({ responseCode: 503, error: 'the receiver answered HTTP 503' });
    expect(failed!.nextAttemptAt).toBeNull();
    expect(failed!.attempts).toBeGreaterThanOrEqual(3);
  });

  it('counts the window from when a delivery was queued: a dead receiver’s backlog drains', async () => {
    const r = await receiver(() => 500);
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    for (const name of ['Backlog 1 Ltd', 'Backlog 2 Ltd', 'Backlog 3 Ltd']) await newClient(name);
    await deliveriesWhen(webhook.id, (l) => l.length === 3);
    // Queued a day ago, as while a receiver stays down: each has had its window.
    await t.server.app.parts.db.kysely
      .updateTable('webhookDelivery')
      .set({ createdAt: new Date(Date.now() - 24 * 60 * 60_000).toISOString() })
      .where('webhookId', '=', webhook.id)
      .execute();
    const list = await deliveriesWhen(webhook.id, (l) => l.every((d) => d.status === 'failed'));
    // The two behind the first are tried once each, not for a window each in turn.
    const [, second, third] = [...list].sort((a, b) => a.eventSeq - b.eventSeq);
    expect([second!.attempts, third!.attempts]).toEqual([1, 1]);
  });

  it('keeps the order of a burst of 50 events, a failing one holding the later ones back', async () => {
    // Every 7th request fails once: its retry comes before any later event.
    const r = await receiver((n) => (n % 7 === 0 ? 500 : 200));
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created', 'client.updated'],
    });
    const client = await newClient('Burst Ltd');
    for (let i = 1; i < 50; i += 1) {
      const put = await t.staff.admin.json('PUT', `/api/clients/${client.id}`, {
        name: `Burst Ltd ${i}`,
        version: i,
      });
      expect(put.status).toBe(200);
    }
    const list = await deliveriesWhen(
      webhook.id,
      (l) => l.length === 50 && l.every((d) => d.status === 'delivered'),
    );
    const seqs = r.bodies<WebhookPayload>().map((body) => body.event.seq);
    // Arrivals never go back: a retry repeats the last seq, a new one is higher.
    for (let i = 1; i < seqs.length; i += 1) expect(seqs[i]).toBeGreaterThanOrEqual(seqs[i - 1]!);
    const distinct = [...new Set(seqs)];
    expect(distinct).toHaveLength(50);
    expect(distinct).toEqual(list.map((d) => d.eventSeq).sort((a, b) => a - b));
    expect(seqs.length - distinct.length).toBeGreaterThanOrEqual(7);
  });

  it('does not follow a redirect: the attempt fails and names it', async () => {
    const r = await receiver((_, got) => (got.path === '/hook' ? { redirect: '/elsewhere' } : 200));
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    await newClient('Redirected Ltd');
    const [first] = await deliveriesWhen(webhook.id, (l) => (l[0]?.attempts ?? 0) >= 1);
    expect(first).toMatchObject({
      status: 'pending',
      responseCode: 302,
      error: 'redirected (HTTP 302): redirects are not followed',
    });
    expect(r.received.every((got) => got.path === '/hook')).toBe(true);
  });

  it('is sent again by the resend route, as a new delivery of the same event', async () => {
    const r = await receiver(() => 500);
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    await newClient('Resent Ltd');
    const [failed] = await deliveriesWhen(webhook.id, (l) => l[0]?.status === 'failed');
    const tries = r.received.length;
    r.answerWith(() => 200);
    const resent = await t.staff.admin.json<WebhookDelivery>(
      'POST',
      `/api/webhooks/${webhook.id}/deliveries/${failed!.id}/resend`,
    );
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ eventSeq: failed!.eventSeq, status: 'pending' });
    await r.waitFor(tries + 1);
    const list = await deliveriesWhen(webhook.id, (l) => l[0]?.status === 'delivered');
    expect(list.map((d) => [d.id, d.status])).toEqual([
      [resent.body.id, 'delivered'],
      [failed!.id, 'failed'],
    ]);
    // A pending delivery needs no resend; an unknown one is 404.
    const again = await t.staff.admin.json(
      'POST',
      `/api/webhooks/${webhook.id}/deliveries/nosuchdelivery/resend`,
    );
    expect(again.status).toBe(404);
  });

  it('in the slack format is a readable line: who did what to which client', async () => {
    const r = await receiver();
    await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
      format: 'slack',
    });
    const client = await newClient('Slack Ltd');
    await r.waitFor(1);
    const [body] = r.bodies<{ text: string; timestamp: number }>();
    const email = (await t.staff.admin.json<{ email: string }>('GET', '/api/me')).body.email;
    expect(body!.text).toBe(`${email} created client Slack Ltd (${client.code})`);
    expect(typeof body!.timestamp).toBe('number');
  });

  it('in the slack format shows names and titles as typed, never as Slack mentions or links', async () => {
    const r = await receiver();
    await createHook(t.staff.admin, {
      url: r.url(),
      events: [
        'client.created',
        'server.created',
        'app.created',
        'credential.created',
        'issue.opened',
      ],
      format: 'slack',
    });
    // What an editor may type: each one would ping the channel and show a disguised link.
    const editor = t.staff.editor;
    const hostile = (what: string) => `<!channel> ${what} <https://evil.example|x> & <!here>`;
    const made = async <T>(path: string, body: Record<string, unknown>): Promise<T> => {
      const answer = await editor.json<T>('POST', path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body;
    };
    const client = await made<Client>('/api/clients', { name: hostile('client') });
    const server = await made<{ id: string }>('/api/servers', {
      clientId: client.id,
      label: hostile('server'),
    });
    await made('/api/apps', { clientId: client.id, serverId: server.id, name: hostile('app') });
    await made('/api/credentials', { name: hostile('credential'), kind: 'token', secret: 'tok-1' });
    await made('/api/issues', { clientId: client.id, title: hostile('issue') });
    await r.waitFor(5);

    const email = (await editor.json<{ email: string }>('GET', '/api/me')).body.email;
    const named = `${hostile('client')} (${client.code})`;
    // Slack reads `<…>` as a control sequence and `&…;` as an entity: none may be left raw, and
    // undoing Slack's three escapes gives back the line a person is meant to read.
    const shown = r.bodies<{ text: string }>().map(({ text }) => {
      expect(text).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
      return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
    });
    expect(shown).toEqual([
      `${email} created client ${named}`,
      `${email} added server "${hostile('server')}" of ${named}: label`,
      `${email} added app "${hostile('app')}" of ${named}: name, server`,
      `${email} added credential "${hostile('credential')}": name, kind, secret`,
      `${email} opened issue "${hostile('issue')}" of ${named}: title, kind`,
    ]);
  });

  it('the test route queues the newest event the endpoint wants, or answers 409', async () => {
    const r = await receiver();
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
    });
    const queued = await t.staff.admin.json<WebhookDelivery>(
      'POST',
      `/api/webhooks/${webhook.id}/test`,
    );
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ eventKind: 'client.created', status: 'pending' });
    await r.waitFor(1);
    const never = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['person.second_factor_reset'],
    });
    const refused = await t.staff.admin.json('POST', `/api/webhooks/${never.webhook.id}/test`);
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'No event of the kinds this endpoint wants yet' },
    });
  });

  it('never shows the secret outside the create answer: not in lists, logs, events or bodies', async () => {
    const r = await receiver();
    const secret = 'Hook-Secret-LEAK-5f7G9h1J3k';
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['client.created'],
      secret,
    });
    const changed = 'Hook-Secret2-LEAK-8m6N4b2V0c';
    const patched = await t.staff.admin.json('PATCH', `/api/webhooks/${webhook.id}`, {
      secret: changed,
    });
    expect(patched.status).toBe(200);
    await newClient('Secretive Ltd');
    await r.waitFor(1);
    const [got] = r.received;
    expect(got!.headers[SIGNATURE_HEADER]).toBe(
      `sha256=${createHmac('sha256', changed).update(got!.body).digest('hex')}`,
    );
    const answers = [
      JSON.stringify(patched.body),
      JSON.stringify((await t.staff.admin.json('GET', '/api/webhooks')).body),
      JSON.stringify(await deliveries(webhook.id)),
      JSON.stringify(await t.server.app.parts.db.kysely.selectFrom('event').selectAll().execute()),
      got!.body.toString('utf8'),
      JSON.stringify(got!.headers),
      logLines.join('\n'),
    ].join('\n');
    for (const value of [secret, changed]) {
      expect(answers).not.toContain(value);
      expect(answers).not.toContain(Buffer.from(value).toString('base64'));
    }
    // Stored sealed, never in clear.
    const row = await t.server.app.parts.db.kysely
      .selectFrom('webhook')
      .select('secret')
      .where('id', '=', webhook.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^v2\./);
    // The list shows each URL whole (a chat service's URL is itself a credential): not kept.
    const list = await t.staff.admin.request('GET', '/api/webhooks');
    expect(list.headers.get('cache-control')).toBe('no-store');
  });
});

describe('changes to an endpoint', () => {
  it('are in the audit trail, live for admins only, naming the secret field, never its value', async () => {
    const admins = await openEventStream(t.server.url, t.staff.admin.cookieHeader);
    const editors = await openEventStream(t.server.url, t.staff.editor.cookieHeader);
    await admins.until('stream.ready');
    await editors.until('stream.ready');
    const r = await receiver();
    const { webhook } = await createHook(t.staff.admin, {
      url: r.url(),
      events: ['webhook.updated'],
      secret: 'Audit-Secret-LEAK-1q2w3e4r5t',
    });
    await t.staff.admin.json('PATCH', `/api/webhooks/${webhook.id}`, {
      secret: 'Audit-Secret2-LEAK-6y7u8i9o0p',
      format: 'slack',
    });
    // The endpoint wants `webhook.updated`: it hears of its own edit, in words.
    await r.waitFor(1);
    const [line] = r.bodies<{ text: string }>();
    expect(line!.text).toMatch(/ changed the webhook to 127\.0\.0\.1:\d+: format, secret$/);
    hooks.splice(hooks.indexOf(webhook.id), 1);
    expect((await t.staff.admin.json('DELETE', `/api/webhooks/${webhook.id}`)).status).toBe(204);
    await newClient('After the hooks Ltd');

    const kinds = ['webhook.created', 'webhook.updated', 'webhook.deleted'];
    const seen = (await admins.until('client.created')).filter((m) => kinds.includes(m.event));
    expect(seen.map((m) => clientEventSchema.parse(JSON.parse(m.data)))).toMatchObject([
      { kind: 'webhook.created', webhookId: webhook.id, clientId: null, fields: expect.any(Array) },
      { kind: 'webhook.updated', webhookId: webhook.id, fields: ['format', 'secret'] },
      { kind: 'webhook.deleted', webhookId: webhook.id, fields: [] },
    ]);
    expect(seen.map((m) => m.data).join('\n')).not.toContain('LEAK');
    // The editor's stream has the client's creation, which came after, and none of them.
    const editorSaw = await editors.until('client.created');
    expect(editorSaw.filter((m) => kinds.includes(m.event))).toEqual([]);
    admins.close();
    editors.close();

    const audit = await t.staff.admin.json<{ events: { kind: string }[] }>(
      'GET',
      '/api/audit?kind=webhook.updated',
    );
    expect(audit.body.events[0]).toMatchObject({ kind: 'webhook.updated', webhookId: webhook.id });
  });
});

describe('the address guard (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  const guarded = { server: undefined as Awaited<ReturnType<typeof startTestServer>> | undefined };
  afterAll(async () => guarded.server?.close());

  it('refuses private, loopback and link-local addresses on save, and at delivery', async () => {
    guarded.server = await startTestServer(
      {},
      { webhooks: { retryDelayMs: 40, maxRetryDelayMs: 80, retryWindowMs: 60_000, pollMs: 100 } },
    );
    const admin = await signUpVerified(guarded.server);
    const r = await receiver();
    for (const url of [
      r.url(),
      `http://localhost:${r.port}/hook`,
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://172.20.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00::1]/hook',
      'http://0.0.0.0/hook',
    ]) {
      const refused = await admin.json<{ fields: Record<string, string> }>(
        'POST',
        '/api/webhooks',
        { url, events: ['client.created'] },
      );
      expect(refused.status, url).toBe(400);
      expect(refused.body.fields.url, url).toMatch(/resolves to a private address/);
    }
    // A public address is taken; the name is then made to resolve to this machine, as a DNS
    // rebinding would: the delivery resolves it again and refuses it.
    const made = await admin.json<WebhookCreated>('POST', '/api/webhooks', {
      url: 'http://203.0.113.10/hook',
      events: ['client.created'],
    });
    expect(made.status).toBe(201);
    await guarded.server.app.parts.db.kysely
      .updateTable('webhook')
      .set({ url: `http://localhost:${r.port}/hook` })
      .execute();
    await admin.json('POST', '/api/clients', { name: 'Guarded Ltd' });
    const delivery = await firstAttempt(admin, made.body.webhook.id);
    expect(delivery.error).toMatch(
      /^localhost resolves to a private address \((127\.0\.0\.1|::1)\)/,
    );
    expect(delivery.responseCode).toBeNull();
    expect(r.received).toHaveLength(0);
  });
});

describe('a receiver that answers 2xx and then streams a body without end', () => {
  const slow = { server: undefined as Awaited<ReturnType<typeof startTestServer>> | undefined };
  const endless = http.createServer();
  afterAll(async () => {
    endless.closeAllConnections();
    await new Promise<void>((resolve) => endless.close(() => resolve()));
    await slow.server?.close();
  });

  it('is delivered at the status, and the exchange ends there: the body is not drained', async () => {
    // The attempt's timeout is far away: only the status ending the exchange closes it soon.
    slow.server = await startTestServer(
      { WEBHOOK_ALLOW_PRIVATE: 'true' },
      { webhooks: { retryDelayMs: 40, maxRetryDelayMs: 80, timeoutMs: 60_000, pollMs: 100 } },
    );
    const admin = await signUpVerified(slow.server);
    const closed = new Promise<void>((resolve) => {
      endless.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
        req.resume();
        req.on('end', () => {
          // A first chunk and then nothing, never ending: as a receiver streaming for ever.
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.write(Buffer.alloc(16 * 1024, 'x'));
          req.socket.on('close', () => resolve());
        });
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    const { port } = endless.address() as AddressInfo;
    const made = await admin.json<WebhookCreated>('POST', '/api/webhooks', {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['client.created'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await admin.json('POST', '/api/clients', { name: 'Endless Ltd' })).status).toBe(201);

    // A bound for a hang, not a target: the connection closes as soon as the status is read.
    let bound: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      bound = setTimeout(
        () => reject(new Error('the receiver’s connection was still open after 20 s')),
        20_000,
      );
    });
    try {
      await Promise.race([closed, hung]);
    } finally {
      clearTimeout(bound);
    }
    const delivery = await firstAttempt(admin, made.body.webhook.id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 1,
      responseCode: 200,
      error: null,
    });
  });
});

/** The endpoint's latest delivery, once it has been attempted. */
async function firstAttempt(admin: Session, webhookId: string): Promise<WebhookDelivery> {
  for (;;) {
    const page = await admin.json<WebhookDeliveryPage>(
      'GET',
      `/api/webhooks/${webhookId}/deliveries`,
    );
    const delivery = page.body.deliveries[0];
    if (delivery && delivery.attempts >= 1) return delivery;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
