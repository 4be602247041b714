import { describe, expect, it } from 'vitest';
import type { ClientEvent } from '#shared/events.ts';
import { describeEvent, duplicatedFrom, formatDateTime } from './history-text.ts';

const event = (kind: ClientEvent['kind'], fields: string[] = []): ClientEvent => ({
  seq: 1,
  kind,
  clientId: 'c1',
  serverId: kind.startsWith('server.') ? 's1' : null,
  credentialId: null,
  personId: null,
  webhookId: null,
  appId: null,
  runId: null,
  issueId: null,
  actor: { id: 'u1', name: 'Ada' },
  at: '2026-11-22T01:09:00.000Z',
  fields,
});

describe('describeEvent', () => {
  it.each([
    [event('client.created'), 'created it'],
    [event('server.checked', ['status:reachable', 'hostKey']), 'checked a server: reachable'],
    [event('server.checked', ['status:host_key_changed']), 'checked a server: host key changed'],
    [event('client.updated', ['name']), 'edited name'],
    [event('client.updated', ['tags', 'server.password']), 'edited tags and password'],
    [
      event('client.updated', ['name', 'server.host', 'startDate']),
      'edited name, host and start date',
    ],
    [event('client.updated'), 'saved it without changes'],
    [event('client.updated', ['newField']), 'edited newField'],
    [event('client.duplicated', ['from:abc']), 'created it as a duplicate'],
    [event('client.password_read'), 'read the password'],
    [event('client.deleted'), 'deleted it'],
    [event('client.created', ['import']), 'imported it'],
    [event('client.updated', ['code', 'import']), 'edited code by an import'],
    [event('client.password_read', ['export']), 'read the password in an export'],
    [event('issue.updated', ['title', 'assigneeId']), "edited an issue's title and assignee"],
    [event('issue.commented', ['comment']), 'commented on an issue'],
  ])('%#: %s', (input, text) => {
    expect(describeEvent(input)).toBe(text);
  });
});

it('finds the source of a duplicate', () => {
  expect(duplicatedFrom(event('client.duplicated', ['from:abc']))).toBe('abc');
  expect(duplicatedFrom(event('client.duplicated'))).toBeUndefined();
  expect(duplicatedFrom(event('client.created', ['from:abc']))).toBeUndefined();
});

it('formats a time, and leaves a broken one as it is', () => {
  expect(formatDateTime('2026-11-22T01:09:00.000Z')).toMatch(/^Nov 2[12], 2026, \d{1,2}:09 [AP]M$/);
  expect(formatDateTime('nonsense')).toBe('nonsense');
});
