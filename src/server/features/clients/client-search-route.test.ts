import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ClientList } from '#shared/clients.ts';
import {
  signUpVerified,
  startTestServer,
  type Session,
  type TestServer,
} from '#server/testing/test-server.ts';

let server: TestServer;
let staff: Session;

beforeAll(async () => {
  server = await startTestServer();
  staff = await signUpVerified(server);
  for (const input of [
    { name: 'Crème Café', code: 'CAF', tags: ['eu-west-1', 'shop'] },
    { name: 'Acme', code: 'ACM', description: 'Web shop', server: { host: 'acme.example.com' } },
    { name: 'Zebra', code: 'ZB', tags: ['shop-eu'] },
  ]) {
    expect((await staff.json('POST', '/api/clients', input)).status).toBe(201);
  }
});
afterAll(async () => server.close());

const names = async (q: string) => {
  const { status, body } = await staff.json<ClientList>(
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
