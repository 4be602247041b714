import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '#shared/events.ts';
import {
  EVENT_FAMILIES,
  eventsByFamily,
  eventsText,
  ownerText,
  pausedText,
  relativeTime,
} from './webhook-text.ts';

describe('event families', () => {
  it('hold every kind the log records, once', () => {
    const kinds = EVENT_FAMILIES.flatMap((family) => family.kinds);
    expect([...kinds].sort()).toEqual([...EVENT_KINDS].sort());
  });

  it('list the chosen kinds by family, leaving out families with none', () => {
    expect(eventsByFamily(['client.created', 'person.joined', 'client.deleted'])).toEqual([
      { name: 'Clients', labels: ['Client added', 'Client deleted'] },
      { name: 'People', labels: ['Person joined'] },
    ]);
  });

  it('count the events, and say when it is all of them', () => {
    expect(eventsText(['client.created'])).toBe('1 event');
    expect(eventsText(['client.created', 'server.created'])).toBe('2 events');
    expect(eventsText(EVENT_KINDS)).toBe(`All ${EVENT_KINDS.length} events`);
  });
});

describe('an endpoint owner', () => {
  it('is named, or said to be gone', () => {
    expect(ownerText('ada@example.com')).toBe('Owner: ada@example.com');
    expect(ownerText(null)).toBe('Owner: a deleted account');
    expect(pausedText('ada@example.com')).toBe(
      'ada@example.com is no longer an administrator who may sign in: save it to take it over.',
    );
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');

  it('says how long ago, in the largest whole unit', () => {
    expect(relativeTime('2026-11-26T11:59:55Z', now)).toBe('now');
    expect(relativeTime('2026-11-26T11:59:30Z', now)).toBe('30 seconds ago');
    expect(relativeTime('2026-11-26T11:54:10Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-11-26T09:00:00Z', now)).toBe('3 hours ago');
    expect(relativeTime('2026-11-25T12:00:00Z', now)).toBe('yesterday');
  });

  it('says how long until a moment to come', () => {
    expect(relativeTime('2026-11-26T12:02:00Z', now)).toBe('in 2 minutes');
  });

  it('leaves what is not a time as it is', () => {
    expect(relativeTime('soon', now)).toBe('soon');
  });
});
