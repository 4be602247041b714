import { describe, expect, it } from 'vitest';
import { toFormErrors, toInput, toPatch, webhookFormSchema } from './webhook-form-values.ts';

const values = {
  url: ' https://example.com/hook ',
  events: ['client.created' as const],
  format: 'json' as const,
  enabled: true,
  secret: '',
};

describe('the webhook form', () => {
  it('takes an empty secret as none given, and sends none', () => {
    expect(webhookFormSchema.safeParse(values).success).toBe(true);
    expect(toInput(values)).toEqual({
      url: 'https://example.com/hook',
      events: ['client.created'],
      format: 'json',
      enabled: true,
    });
  });

  it('sends a typed secret, and refuses a short one', () => {
    const secret = 'a secret of enough length';
    expect(toInput({ ...values, secret }).secret).toBe(secret);
    const short = webhookFormSchema.safeParse({ ...values, secret: 'short' });
    expect(short.success).toBe(false);
  });

  it('edits with what was changed only, the events compared whatever their order', () => {
    const initial = {
      ...values,
      url: 'https://example.com/hook',
      events: ['client.created' as const, 'client.deleted' as const],
    };
    expect(toPatch(initial, { ...initial, events: ['client.deleted', 'client.created'] })).toEqual(
      {},
    );
    expect(
      toPatch(initial, { ...initial, url: ' https://example.com/other ', enabled: false }),
    ).toEqual({
      url: 'https://example.com/other',
      enabled: false,
    });
    expect(
      toPatch(initial, {
        ...initial,
        events: ['client.created'],
        secret: 'a secret of enough length',
      }),
    ).toEqual({
      events: ['client.created'],
      secret: 'a secret of enough length',
    });
  });

  it('refuses no events and an address that is not http(s)', () => {
    const result = webhookFormSchema.safeParse({ ...values, events: [], url: 'ftp://x.example' });
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'events',
      'url',
    ]);
  });

  it("puts a 400's fields next to the form's fields, and the rest above it", () => {
    expect(
      toFormErrors({ url: 'resolves to a private address', 'events.2': 'Unknown', other: 'No' }),
    ).toEqual({
      errors: { url: 'resolves to a private address', events: 'Unknown' },
      unplaced: ['other: No'],
    });
  });
});
