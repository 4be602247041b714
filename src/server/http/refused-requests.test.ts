import { describe, expect, it } from 'vitest';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile({ staff: { member: { name: 'Member' } } });

/** The answer's status and JSON body, as the app's other refusals are read. */
async function answer(path: string, init: RequestInit = {}) {
  const response = await fetch(new URL(path, t.server.url), {
    ...init,
    headers: { cookie: t.staff.member.cookieHeader, origin: t.server.url, ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('requests the router or the JSON parser refuse', () => {
  it('are answered in the shape of every other refusal, naming what is wrong', async () => {
    // The router's own refusals, before any route or the session check runs.
    expect(await answer('/api/clients/%ff')).toEqual({
      status: 400,
      body: { error: 'path: Must be valid percent-encoded UTF-8' },
    });
    expect(await answer(`/api/clients/${'a'.repeat(101)}`)).toEqual({
      status: 400,
      body: { error: 'path: A part of the path is longer than 100 characters' },
    });
    // Valid JSON, but with a key the parser refuses: not "malformed".
    const poisoned = await answer('/api/clients', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":{"__proto__":{"x":1}}}',
    });
    expect(poisoned).toEqual({
      status: 400,
      body: { error: 'JSON body: keys named __proto__ or constructor.prototype are not taken' },
    });
    const broken = await answer('/api/clients', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(broken.body).toEqual({ error: 'Malformed JSON body: send a valid JSON object' });
  });
});
