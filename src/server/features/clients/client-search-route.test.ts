import { beforeAll, expect, it } from 'vitest';
import type { ClientList } from '#shared/clients.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

const t = serveThisFile({ staff: { member: {} } });

beforeAll(async () => {
  for (const input of [
    { name: 'Crème Café', code: 'CAF', tags: ['eu-west-1', 'shop'] },
    { name: 'Acme', code: 'ACM', description: 'Web shop', server: { host: 'acme.example.com' } },
    { name: 'Zebra', code: 'ZB', tags: ['shop-eu'] },
  ]) {
    expect((await t.staff.member.json('POST', '/api/clients', input)).status).toBe(201);
  }
});

const names = async (q: string) => {
  const { status, body } = await t.staff.member.json<ClientList>(
    'GET',
    `/api/clients?q=${encodeURIComponent(q)}`,
  );
  expect(status).toBe(200);
  return body.clients.map((c) => c.name);
};

it('GET /api/clients?q= filters like the search box, ignoring case and accents', async () => {
  expect(await names('CREME')).toEqual(['Crème Café']);
  expect(await names('acme.example')).toEqual(['Acme']);
  expect(await names('shop')).toEqual(['Crème Café', 'Acme', 'Zebra']);
  expect(await names('tag:shop')).toEqual(['Crème Café']);
  expect(await names('zb')).toEqual(['Zebra']);
  expect(await names('nothing')).toEqual([]);
  expect(await names('')).toHaveLength(3);
});
