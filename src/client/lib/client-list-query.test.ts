import { describe, expect, it } from 'vitest';
import type { ClientSummary } from '#shared/clients.ts';
import { clientListSample } from './client-list-query.ts';

const client: ClientSummary = {
  id: 'c1',
  name: 'Acme',
  code: 'ACME',
  description: '',
  tags: ['eu'],
  startDate: '2026-01-02',
  updatedAt: '2026-01-02T00:00:00.000Z',
  updatedBy: 'ada@example.test',
  server: { host: 'acme.example' },
};

describe('the client list as the web app checks it', () => {
  it('keeps each client as it came, not a copy', () => {
    const list = { clients: [client, { ...client, id: 'c2' }] };
    const parsed = clientListSample.parse(list);
    expect(parsed.clients[1]).toBe(list.clients[1]);
  });

  it('refuses a row without an id, naming where', () => {
    const result = clientListSample.safeParse({ clients: [client, { name: 'No id' }] });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['clients.1', 'Must be a client with an id'],
    ]);
  });
});
