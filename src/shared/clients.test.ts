import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { accessTokenInputSchema } from './account.ts';
import { appFieldsSchema } from './apps.ts';
import { bulkTagsSchema } from './client-bulk.ts';
import { CLIENT_NAME_MAX, clientInputSchema, clientLabel, cloneName } from './clients.ts';
import { serverFieldsSchema } from './servers.ts';
import { webhookInputSchema } from './webhooks.ts';

describe('clientLabel', () => {
  it('names a client by name and code, or by its id when it has neither', () => {
    expect(clientLabel({ id: 'c1', name: 'Acme', code: 'ACME' })).toBe('Acme (ACME)');
    expect(clientLabel({ id: 'c1', name: 'Acme', code: '' })).toBe('Acme');
    expect(clientLabel({ id: 'c1', name: '', code: '' })).toBe('c1');
  });
});

describe('cloneName', () => {
  it('adds the suffix to a name with room for it', () => {
    expect(cloneName('Initech')).toBe('Initech (Clone)');
  });

  it('cuts a long name so the copy fits, never inside a character or before a space', () => {
    expect(cloneName('a'.repeat(CLIENT_NAME_MAX))).toHaveLength(CLIENT_NAME_MAX);
    // The cut would fall between the two halves of the emoji.
    expect(cloneName(`${'a'.repeat(191)}😀tail`)).toBe(`${'a'.repeat(191)} (Clone)`);
    expect(cloneName(`${'a'.repeat(190)}  tail`)).toBe(`${'a'.repeat(190)} (Clone)`);
  });
});

describe("fields that reach a command refuse a leading '-'", () => {
  const LEADING_DASH_MESSAGE = "Must not start with '-'";
  /** The first message zod gives for each path of a refused value. */
  function fieldErrors(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
    return errors;
  }

  it('in a client: tags (text or list), code and uiDir, each named', () => {
    expect(
      fieldErrors(
        clientInputSchema.safeParse({
          tags: '--token=attacker-token, eu',
          code: '-C',
          server: { host: 'h.example', uiDir: '--use-compress-program=touch /tmp/pwned #' },
        }),
      ),
    ).toEqual({
      'tags.0': LEADING_DASH_MESSAGE,
      code: LEADING_DASH_MESSAGE,
      'server.uiDir': LEADING_DASH_MESSAGE,
    });
    expect(fieldErrors(clientInputSchema.safeParse({ tags: ['eu', '-'] }))).toEqual({
      'tags.1': LEADING_DASH_MESSAGE,
    });
    // Only at the start: inside a value it is an ordinary character.
    expect(
      clientInputSchema.safeParse({
        tags: ['eu-west-1'],
        code: 'A-1',
        server: { uiDir: '/srv/-ui' },
      }).success,
    ).toBe(true);
  });

  it('in a server, an app and the access token', () => {
    expect(fieldErrors(serverFieldsSchema.safeParse({ label: '-main', uiDir: '-' }))).toMatchObject(
      { label: LEADING_DASH_MESSAGE, uiDir: LEADING_DASH_MESSAGE },
    );
    expect(
      fieldErrors(appFieldsSchema.safeParse({ name: '-web', serverId: 's1', directory: '-' })),
    ).toEqual({ name: LEADING_DASH_MESSAGE, directory: LEADING_DASH_MESSAGE });
    expect(fieldErrors(accessTokenInputSchema.safeParse({ accessToken: '--server=x' }))).toEqual({
      accessToken: LEADING_DASH_MESSAGE,
    });
  });

  it('in a bulk tag addition, not in a removal (to take off a tag stored before)', () => {
    expect(
      fieldErrors(bulkTagsSchema.safeParse({ ids: ['c1'], add: ['--token=attacker-token'] })),
    ).toEqual({ 'add.0': LEADING_DASH_MESSAGE });
    expect(
      bulkTagsSchema.safeParse({ ids: ['c1'], remove: ['--token=attacker-token'] }).success,
    ).toBe(true);
  });
});

describe('a client’s tags', () => {
  it('are at most 50, said as such whether given as text or as a list', () => {
    const many = Array.from({ length: 60 }, (_, i) => `t${i}`);
    for (const tags of [many, many.join(', ')]) {
      const result = clientInputSchema.safeParse({ tags });
      expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        ['tags', 'At most 50 tags'],
      ]);
    }
  });
});

describe('addresses refuse characters that disguise them', () => {
  const MESSAGE =
    'Must not contain control, bidi or zero-width characters: they can disguise the address';
  // U+202E shows "https://example.com/\u202Egpj.exe" as ending in "exe.jpg"; a zero-width space
  // or a joiner makes two addresses that look alike differ.
  const disguised = [
    'https://example.com/\u202Egpj.exe',
    'https://exa\u200Bmple.com/',
    'https://example.com/a\u2066b\u2069',
    'https://example.com/\u00ADadmin',
  ];

  it('in a client’s domains, naming the domain', () => {
    for (const domain of disguised) {
      const result = clientInputSchema.safeParse({
        name: 'Acme',
        domains: ['https://ok.example/', domain],
      });
      expect(result.success, domain).toBe(false);
      expect(
        result.error?.issues.map((i) => [i.path.join('.'), i.message]),
        domain,
      ).toEqual([['domains.1', MESSAGE]]);
    }
    expect(
      clientInputSchema.safeParse({ name: 'Acme', domains: ['https://straße.example/ü'] }).success,
    ).toBe(true);
  });

  it('in a webhook’s address', () => {
    for (const url of disguised) {
      const result = webhookInputSchema.safeParse({ url, events: ['client.created'] });
      expect(result.success, url).toBe(false);
      expect(
        result.error?.issues.map((i) => [i.path.join('.'), i.message]),
        url,
      ).toEqual([['url', MESSAGE]]);
    }
  });
});
