import { describe, expect, it } from 'vitest';
import { EXPORT_FORMAT } from '#shared/client-transfer.ts';
import { MAX_KDF_ROUNDS } from '#server/ssh/locked-key.ts';
import { sshKeyText, withKdfRounds } from '#server/testing/sshd.ts';
import { IMPORT_MAX_CREDENTIALS, IMPORT_MAX_KDF_ROUNDS } from './import-servers.ts';
import {
  ImportFileError,
  mapDocument,
  mapImportFile,
  readImportDocuments,
  readStartDate,
} from './import-mapping.ts';

/** A document of the original tool's `clients` collection (SPEC.md section 3). */
const firestoreDoc = {
  name: 'Acme',
  code: 'ACM',
  description: 'Web shop',
  tags: 'eu-west-1, shop',
  startDate: { _seconds: 1_700_000_000, _nanoseconds: 0 },
  server: {
    username: 'deploy',
    private: true,
    password: 'hunter2',
    port: '2222',
    host: 'acme.example.com',
    uiDir: '/srv/ui',
  },
  domains: ['https://acme.example.com'],
};

describe('readImportDocuments finds the documents in every accepted shape', () => {
  const doc = { name: 'A' };
  it.each([
    ['a list', [doc], [{ doc }]],
    ['{ clients: [...] }', { clients: [doc] }, [{ doc }]],
    ['{ clients: { id: doc } }', { clients: { abc: doc } }, [{ key: 'abc', doc }]],
    [
      'an object keyed by id',
      { abc: doc, def: doc },
      [
        { key: 'abc', doc },
        { key: 'def', doc },
      ],
    ],
    [
      'node-firestore-import-export',
      { __collections__: { clients: { abc: { ...doc, __collections__: {} } } } },
      [{ key: 'abc', doc: { ...doc, __collections__: {} } }],
    ],
    ['our own export', { format: EXPORT_FORMAT, version: 1, clients: [doc] }, [{ doc }]],
  ])('%s', (_shape, data, expected) => {
    expect(readImportDocuments(data)).toEqual(expected);
  });

  it.each([
    ['a string', 'clients', /holds no client documents/],
    ['a single document', { name: 'A', code: 'B' }, /holds no client documents/],
    ['clients as text', { clients: 'x' }, /neither a list nor an object/],
    [
      'another export version',
      { format: EXPORT_FORMAT, version: 3, clients: [] },
      /version 3; this server reads versions 1 and 2/,
    ],
    [
      'a version given as text',
      { format: EXPORT_FORMAT, version: '2', clients: [] },
      /^version: Must be a number, such as 2 \(not "2"\)$/,
    ],
    [
      'an export without a version',
      { format: EXPORT_FORMAT, clients: [] },
      /^version: Must be a number, such as 2 \(not undefined\)$/,
    ],
  ])('refuses %s as a whole, saying what it accepts', (_what, data, message) => {
    expect(() => readImportDocuments(data)).toThrow(ImportFileError);
    expect(() => readImportDocuments(data)).toThrow(message);
  });
});

describe('readStartDate', () => {
  it.each([
    ['an ISO date', '2021-03-04', '2021-03-04'],
    ['an ISO timestamp', '2021-03-04T23:30:00.000Z', '2021-03-04'],
    ['a Date string', 'Thu, 04 Mar 2021 12:00:00 GMT', '2021-03-04'],
    ['a JavaScript Date string', 'Thu Mar 04 2021 13:00:00 GMT+0100 (CET)', '2021-03-04'],
    // A text with its zone is read as the date it writes, as an ISO timestamp with an offset is,
    // not as the date in UTC (the 5th for the first three, the 3rd for the last).
    ['an ISO timestamp with an offset', '2021-03-04T23:30:00-05:00', '2021-03-04'],
    ['a Date string west of UTC', 'Thu, 04 Mar 2021 23:30:00 -0500', '2021-03-04'],
    ['a JavaScript Date string west', 'Thu Mar 04 2021 23:30:00 GMT-0500 (EST)', '2021-03-04'],
    ['a Date string east of UTC', 'Thu, 04 Mar 2021 00:30:00 +0530', '2021-03-04'],
    ['Timestamp JSON', { seconds: 1_614_859_200, nanoseconds: 5 }, '2021-03-04'],
    ['the Admin SDK form', { _seconds: 1_614_859_200, _nanoseconds: 0 }, '2021-03-04'],
    [
      'node-firestore-import-export',
      { __datatype__: 'timestamp', value: { _seconds: 1_614_859_200, _nanoseconds: 0 } },
      '2021-03-04',
    ],
    ['milliseconds', 1_614_859_200_000, '2021-03-04'],
    ['null (the default applies)', null, undefined],
  ])('reads %s', (_what, value, date) => {
    expect(readStartDate(value)).toEqual({ date });
  });

  it.each([
    ['soon'],
    [{ when: 'x' }],
    [true],
    // Text a loose parser would make a date of, in 2001 or in the server's own time zone.
    ['Client 5'],
    ['1'],
    ['November 21, 2026'],
    ['11/21/2026'],
  ])('names the field for %j', (value) => {
    expect(readStartDate(value)).toEqual({ problem: expect.stringMatching(/^startDate: /) });
  });

  // A file is up to 20 MB of JSON: enough to wrap a timestamp in itself 100,000 times, which
  // a reader recursing once a wrapper would not survive (a 500 for the whole import).
  it('names the field for a timestamp wrapped in itself, however deep', () => {
    const wrap = (value: unknown) => ({ __datatype__: 'timestamp', value });
    const seconds = { _seconds: 1_614_859_200, _nanoseconds: 0 };
    expect(readStartDate(wrap(wrap(seconds)))).toEqual({
      problem: expect.stringMatching(/^startDate: /),
    });
    const depth = 100_000;
    const deep: unknown = JSON.parse(
      `${'{"__datatype__":"timestamp","value":'.repeat(depth)}1${'}'.repeat(depth)}`,
    );
    expect(readStartDate(deep)).toEqual({ problem: expect.stringMatching(/^startDate: /) });
  });
});

describe('mapDocument', () => {
  it('maps a Firestore document of the original tool onto the form’s fields', () => {
    expect(mapDocument(firestoreDoc, 'AbCdEfGhIj0123456789')).toEqual({
      id: 'AbCdEfGhIj0123456789',
      values: {
        name: 'Acme',
        code: 'ACM',
        description: 'Web shop',
        tags: ['eu-west-1', 'shop'],
        startDate: '2023-11-14',
        server: {
          host: 'acme.example.com',
          port: 2222,
          username: 'deploy',
          password: 'hunter2',
          private: true,
          uiDir: '/srv/ui',
        },
        domains: ['https://acme.example.com'],
      },
    });
  });

  it('takes the id from id, __id__ or _id before the key, and fills nulls with defaults', () => {
    const mapped = mapDocument(
      { __id__: 'from-field', name: null, tags: null, server: { port: null, private: 'false' } },
      'from-key',
    );
    expect(mapped).toMatchObject({
      id: 'from-field',
      values: { name: '', tags: [], server: { port: 22, private: false, host: '' } },
    });
    expect(mapDocument({ _id: 'x1' })).toMatchObject({ id: 'x1' });
    expect(mapDocument({ id: 42, code: 7 })).toMatchObject({ id: '42', values: { code: '7' } });
  });

  it('gives a new id (undefined) for ids that cannot be client ids or name a route', () => {
    expect(mapDocument({ name: 'A' }, 'has/slash')).toMatchObject({ id: undefined });
    for (const word of ['export', 'import', 'bulk']) {
      expect(mapDocument({ name: 'A' }, word), word).toMatchObject({ id: undefined });
    }
  });

  it('keeps an absent password absent, so an update keeps the stored one', () => {
    const mapped = mapDocument({ server: { host: 'h' } });
    expect('values' in mapped && mapped.values.server.password).toBeUndefined();
  });

  it('reads domains given as one text', () => {
    expect(mapDocument({ domains: 'https://a.example, https://b.example' })).toMatchObject({
      values: { domains: ['https://a.example', 'https://b.example'] },
    });
  });

  it.each([
    ['not an object', 'text', /^Not an object/],
    ['a bad port', { server: { port: 'ssh' } }, /^server\.port: /],
    ['a port out of range', { server: { port: 70000 } }, /^server\.port: Must be between/],
    ['a bad domain', { domains: ['ftp://x'] }, /^domains\.0: Must be an http/],
    ['a host with a space', { server: { host: 'a b' } }, /^server\.host: /],
    ['a bad date', { startDate: 'someday' }, /^startDate: /],
    ['a name that is an object', { name: { first: 'A' } }, /^name: /],
    [
      'a bad date beside other faults, naming each',
      { startDate: 'someday', domains: ['ftp://x'], server: { port: 70000 } },
      /^startDate: .*; server\.port: Must be between 1 and 65535; domains\.0: Must be an http/,
    ],
  ])('rejects %s, naming the field', (_what, doc, reason) => {
    expect(mapDocument(doc, 'id1')).toEqual({
      ...(typeof doc === 'object' ? { id: 'id1' } : {}),
      reason: expect.stringMatching(reason),
    });
  });
});

describe('mapImportFile', () => {
  it('reports every invalid document with its index and id, and a repeated id', async () => {
    const result = await mapImportFile([
      { id: 'one', name: 'A' },
      { id: 'two', server: { port: -1 } },
      { name: 'no id' },
      { id: 'one', name: 'again' },
    ]);
    expect(result.total).toBe(4);
    expect(result.candidates.map((c) => [c.index, c.id])).toEqual([
      [0, 'one'],
      [2, undefined],
    ]);
    expect(result.invalid).toEqual([
      { index: 1, id: 'two', reason: 'server.port: Must be between 1 and 65535' },
      {
        index: 3,
        id: 'one',
        reason: 'id: The same id as document 0; each client may appear once',
      },
    ]);
  });

  it('takes a password or token as long as the vault does, and a private key longer', async () => {
    const file = (kind: string, secret: string) => ({
      format: EXPORT_FORMAT,
      version: 2,
      clients: [],
      credentials: [{ id: 'cred1', name: 'n', kind, secret }],
    });
    for (const kind of ['token', 'password']) {
      const most = await mapImportFile(file(kind, 'x'.repeat(4096)));
      expect(most.credentials.get('cred1')?.material?.secret, kind).toHaveLength(4096);
      await expect(mapImportFile(file(kind, 'x'.repeat(4097))), kind).rejects.toThrow(
        new ImportFileError('credentials.0.secret: Must be at most 4096 characters'),
      );
    }
    // Read as a key (and refused as none) rather than refused for its length.
    await expect(mapImportFile(file('ssh-key', 'x'.repeat(4097)))).rejects.toThrow(
      /^credentials\.0\.secret: This is not a private key/,
    );
  });

  it('opens no key of a file whose keys would take more than IMPORT_MAX_KDF_ROUNDS', async () => {
    const key = await sshKeyText({ passphrase: 'the passphrase', kdfRounds: 1 });
    // Each key within the limit of one key, together past the file's; the passphrase is
    // wrong, so a key that was opened would be refused for that instead, after seconds.
    const keys = Math.floor(IMPORT_MAX_KDF_ROUNDS / MAX_KDF_ROUNDS) + 1;
    const credentials = Array.from({ length: keys }, (_, n) => ({
      id: `key${n}`,
      name: `Key ${n}`,
      kind: 'ssh-key',
      secret: withKdfRounds(key, MAX_KDF_ROUNDS),
      passphrase: 'not the passphrase',
    }));
    await expect(
      mapImportFile({ format: EXPORT_FORMAT, version: 2, clients: [], credentials }),
    ).rejects.toThrow(
      new ImportFileError(
        `credentials: The keys' passphrases take ${keys * MAX_KDF_ROUNDS} bcrypt rounds to open in all, more than ${IMPORT_MAX_KDF_ROUNDS} for one file: import it in parts, or protect the keys again with fewer rounds (ssh-keygen -p -a 16)`,
      ),
    );
  });

  it('takes at most IMPORT_MAX_CREDENTIALS credentials in one file', async () => {
    const credentials = (count: number) =>
      Array.from({ length: count }, (_, n) => ({
        id: `pw${n}`,
        name: `Password ${n}`,
        kind: 'password',
        secret: `password ${n}`,
      }));
    const file = (count: number) => ({
      format: EXPORT_FORMAT,
      version: 2,
      clients: [],
      credentials: credentials(count),
    });
    const most = await mapImportFile(file(IMPORT_MAX_CREDENTIALS));
    expect(most.credentials.size).toBe(IMPORT_MAX_CREDENTIALS);
    await expect(mapImportFile(file(IMPORT_MAX_CREDENTIALS + 1))).rejects.toThrow(
      new ImportFileError(
        `credentials: At most ${IMPORT_MAX_CREDENTIALS} in one file: import it in parts`,
      ),
    );
  });
});
