import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import {
  signUpVerified,
  startTestServer,
  type Session,
  type TestServer,
} from '#server/testing/test-server.ts';
import { openEventStream } from '#server/testing/sse-reader.ts';

// The same conversation with an instance on SQLite and one on PostgreSQL must give the same
// bytes, once what is random or time-dependent (ids, timestamps, emails) is named
// consistently: the data layer maps timestamps, booleans and JSON lists identically.
let sqlite: TestServer;
let postgres: TestServer;

beforeAll(async () => {
  [sqlite, postgres] = await Promise.all([
    startTestServer({}, { database: 'sqlite' }),
    startTestServer({}, { database: 'postgres' }),
  ]);
});
afterAll(async () => {
  await Promise.all([sqlite.close(), postgres.close()]);
});

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Replaces each distinct id, timestamp and email by a stable name in order of appearance. */
function normalise(text: string, known: Map<string, string>): string {
  const name = (kind: string, value: string) => {
    if (!known.has(value)) known.set(value, `<${kind} ${known.size + 1}>`);
    return known.get(value)!;
  };
  return text
    .replace(/"(\d{4}-\d{2}-\d{2}T[^"]+)"/g, (match, value: string) =>
      ISO_TIME.test(value) ? `"${name('time', value)}"` : match,
    )
    .replace(/[\w.+-]+@example\.test/g, (value) => name('email', value))
    .replace(
      /"(id|clientId|credentialId|actorId|userId)":"([^"]+)"/g,
      (_, key: string, value: string) => {
        return `"${key}":"${name('id', value)}"`;
      },
    )
    .replace(/"from:([\w-]+)"/g, (_, id: string) => `"from:${name('id', id)}"`)
    .replace(/\/api\/clients\/([\w-]{10,})/g, (_, id: string) => `/api/clients/${name('id', id)}`);
}

/** One staff member's working session; every answer as status, content type and body text. */
async function conversation(server: TestServer): Promise<string[]> {
  const staff: Session = await signUpVerified(server, { name: 'Same Person' });
  const answers: string[] = [];
  const known = new Map<string, string>();
  const ask = async (method: string, url: string, body?: unknown) => {
    const response = await staff.request(method, normalisedBack(url, known), body);
    const text = await response.text();
    answers.push(
      `${method} ${url} → ${response.status} ${response.headers.get('content-type')}\n` +
        normalise(text, known),
    );
    return text ? (JSON.parse(text) as unknown) : null;
  };

  const created = (await ask('POST', '/api/clients', {
    name: 'Acme Hosting',
    code: 'ACM',
    description: 'Main shop',
    tags: ' web-1 , eu ,, ',
    startDate: '2026-11-21',
    server: { host: 'acme.example.net', port: 2222, username: 'deploy', password: 's3cret' },
    domains: ['https://acme.example', 'http://shop.acme.example/path?x=1'],
  })) as Client;
  const id = known.get(created.id)!;
  await ask('POST', '/api/clients', { name: 'Bare' });
  await ask('GET', '/api/clients');
  await ask('GET', `/api/clients/${id}`);
  await ask('PUT', `/api/clients/${id}`, {
    ...created,
    description: 'Main shop, moved',
    server: { ...created.server, private: false },
    version: created.version,
  });
  await ask('PUT', `/api/clients/${id}`, { name: 'Stale', version: created.version });
  await ask('PUT', `/api/clients/${id}`, { name: 'x'.repeat(201), version: 2 });
  await ask('GET', `/api/clients/${id}/password`);
  await ask('POST', `/api/clients/${id}/duplicate`);
  await ask('GET', `/api/clients/${id}/history`);
  await ask('DELETE', `/api/clients/${id}`);
  await ask('GET', `/api/clients/${id}`);
  await ask('POST', `/api/clients/${id}/restore`);
  await ask('GET', '/api/clients');

  const stream = await openEventStream(server.url, staff.cookieHeader, '0');
  const replay = await stream.until('stream.ready');
  stream.close();
  for (const message of replay) {
    answers.push(`event ${message.id} ${message.event}\n${normalise(message.data, known)}`);
  }
  return answers;
}

/** Turns a stable name such as `<id 3>` in a URL back into this server's real id. */
function normalisedBack(url: string, known: Map<string, string>): string {
  return url.replace(/<id \d+>/g, (placeholder) => {
    for (const [real, name] of known) if (name === placeholder) return real;
    throw new Error(`unknown ${placeholder}`);
  });
}

describe('the API on SQLite and on PostgreSQL', () => {
  it('answers the same conversation with the same bytes', async () => {
    const [onSqlite, onPostgres] = await Promise.all([
      conversation(sqlite),
      conversation(postgres),
    ]);
    // Worth comparing only if the conversation really covered answers of every kind.
    expect(onSqlite.some((a) => a.includes('→ 409'))).toBe(true);
    expect(onSqlite.some((a) => a.includes('→ 400'))).toBe(true);
    expect(onSqlite.some((a) => a.includes('"private":false'))).toBe(true);
    expect(onSqlite.filter((a) => a.startsWith('event ')).length).toBeGreaterThanOrEqual(6);
    expect(onPostgres).toEqual(onSqlite);
  });
});
