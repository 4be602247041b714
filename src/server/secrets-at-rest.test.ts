import fs from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import { openEventStream } from './testing/sse-reader.ts';
import { serveThisFile } from './testing/file-server.ts';

// Distinctive values: any trace of them in the file bytes or a payload is a leak.
const SECRETS = ['Pa55-client-secret-ALPHA', 'Pa55-deleted-secret-BRAVO', 'tok-deploy-CHARLIE-9'];

// The raw bytes are those of the embedded SQLite file (and its write-ahead log).
const t = serveThisFile({ start: { database: 'sqlite' }, staff: { member: {} } });
let client: Client;

beforeAll(async () => {
  client = (
    await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Vault',
      server: { host: 'vault.example', password: SECRETS[0] },
    })
  ).body;
  const gone = (
    await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Gone',
      server: { password: SECRETS[1] },
    })
  ).body;
  await t.staff.member.json('PUT', `/api/clients/${client.id}`, {
    name: 'Vault',
    server: { host: 'vault.example', password: SECRETS[0] },
    version: 1,
  });
  await t.staff.member.json('DELETE', `/api/clients/${gone.id}`);
  await t.staff.member.json('PUT', '/api/me/access-token', { accessToken: SECRETS[2] });
});

it('the database file and its write-ahead log hold no secret in clear', async () => {
  // Proof that the secrets are stored and readable at all.
  const read = await t.staff.member.json<{ password: string }>(
    'GET',
    `/api/clients/${client.id}/password`,
  );
  expect(read.body.password).toBe(SECRETS[0]);

  if (t.server.config.database.kind !== 'sqlite') throw new Error('expected SQLite');
  const file = t.server.config.database.file;
  const files = [file, `${file}-wal`].filter((f) => fs.existsSync(f));
  expect(files).toContain(file);
  const bytes = Buffer.concat(files.map((f) => fs.readFileSync(f)));
  expect(bytes.length).toBeGreaterThan(0);
  // The clear names are there, so the check reads real content.
  expect(bytes.includes(Buffer.from('vault.example'))).toBe(true);
  for (const secret of SECRETS) {
    expect(bytes.includes(Buffer.from(secret, 'utf8'))).toBe(false);
    expect(bytes.includes(Buffer.from(secret, 'utf16le'))).toBe(false);
  }
});

it('the list, a client, its history and the live feed never carry a secret', async () => {
  const stream = await openEventStream(t.server.url, t.staff.member.cookieHeader, '0');
  const texts: string[] = [];
  for (const url of [
    '/api/clients',
    `/api/clients/${client.id}`,
    `/api/clients/${client.id}/history`,
    '/api/me',
  ]) {
    const response = await t.staff.member.request('GET', url);
    expect(response.status).toBe(200);
    texts.push(await response.text());
  }
  // Replayed from the start: every event written so far, up to the stream's ready signal.
  texts.push(...(await stream.until('stream.ready')).map((message) => message.data));
  stream.close();
  const all = texts.join('\n');
  expect(all).toContain('Vault');
  for (const secret of SECRETS) expect(all).not.toContain(secret);
});
