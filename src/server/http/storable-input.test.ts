import { describe, expect, it } from 'vitest';
import type { ApiError } from '#shared/api-error.ts';
import type { WebhookCreated } from '#shared/webhooks.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * PostgreSQL cannot store NUL in text nor compare with it, and a lone UTF-16 surrogate cannot be
 * written as UTF-8: a request carrying either, in any field a route reads, is a 400 naming the
 * field, never a 500, on both databases.
 */

const t = serveThisFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'false' },
  staff: { admin: { name: 'Admin', role: 'admin' } },
});

const MESSAGE = 'Must not contain NUL characters or broken Unicode';

async function refused(method: string, url: string, body?: unknown) {
  const answer = await t.staff.admin.json<ApiError>(method, url, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  return answer.body;
}

describe('text no database can store', () => {
  it('is refused in a body, naming the field', async () => {
    const nul = await refused('POST', '/api/webhooks', {
      url: 'http://93.184.216.34/a\u0000b',
      events: ['client.created'],
    });
    expect(nul.fields).toEqual({ url: MESSAGE });
    const lone = await refused('POST', '/api/webhooks', {
      url: 'http://93.184.216.34/\ud800',
      events: ['client.created'],
    });
    expect(lone.fields).toEqual({ url: MESSAGE });
    const { body: made } = await t.staff.admin.json<WebhookCreated>('POST', '/api/webhooks', {
      url: 'http://93.184.216.34/hook',
      events: ['client.created'],
    });
    const edit = await refused('PATCH', `/api/webhooks/${made.webhook.id}`, {
      url: 'http://93.184.216.34/x\u0000y',
    });
    expect(edit.fields).toEqual({ url: MESSAGE });
    const { body: list } = await t.staff.admin.json<{ webhooks: { url: string }[] }>(
      'GET',
      '/api/webhooks',
    );
    expect(list.webhooks.map((w) => w.url)).toEqual(['http://93.184.216.34/hook']);
  });

  it('is refused in a query, naming the parameter', async () => {
    expect((await refused('GET', '/api/audit?actor=%00')).fields).toEqual({ actor: MESSAGE });
    expect((await refused('GET', '/api/audit?person=a%00b')).fields).toEqual({ person: MESSAGE });
  });

  it('is refused inside a page cursor of deliveries', async () => {
    const { body: made } = await t.staff.admin.json<WebhookCreated>('POST', '/api/webhooks', {
      url: 'http://93.184.216.34/cursor',
      events: ['client.created'],
    });
    const cursor = Buffer.from('2026-01-01T00:00:00.000Z|\u0000').toString('base64url');
    const answer = await refused(
      'GET',
      `/api/webhooks/${made.webhook.id}/deliveries?cursor=${cursor}`,
    );
    expect(Object.keys(answer.fields ?? {})).toEqual(['cursor']);
  });
});
