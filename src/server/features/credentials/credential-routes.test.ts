import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Credential, CredentialList, CredentialSecret } from '#shared/credentials.ts';
import { SHORT_SECRET_MESSAGE } from '#shared/secret-length.ts';
import type { ServerList } from '#shared/servers.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { describePrivateKey } from '#server/ssh/ssh-keys.ts';
import { blockingMs, leastStall } from '#server/testing/event-loop-stall.ts';
import { sshKeygen, withKdfRounds } from '#server/testing/sshd.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { STALE_VERSION_CODE } from '#shared/api-error.ts';

const t = serveThisFile({ staff: { keeper: { name: 'Kim Keeper' } } });

/** Keys as people paste them, written by OpenSSH's ssh-keygen. */
const keys = { openssh: '', opensshPub: '', pem: '', locked: '', lockedOpenssh: '' };
const PASSPHRASE = 'open sesame, 7 times';
let keeperEmail: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cm-vault-'));
  await sshKeygen(path.join(dir, 'openssh'), { comment: 'pasted@example' });
  await sshKeygen(path.join(dir, 'pem'), { type: 'rsa', pem: true });
  await sshKeygen(path.join(dir, 'locked'), { type: 'rsa', pem: true, passphrase: PASSPHRASE });
  keys.openssh = await readFile(path.join(dir, 'openssh'), 'utf8');
  keys.opensshPub = await readFile(path.join(dir, 'openssh.pub'), 'utf8');
  keys.pem = await readFile(path.join(dir, 'pem'), 'utf8');
  keys.locked = await readFile(path.join(dir, 'locked'), 'utf8');
  // OpenSSH's own format: its passphrase is derived with bcrypt, 32 rounds here (16 by default).
  await sshKeygen(path.join(dir, 'locked-openssh'), { passphrase: PASSPHRASE, kdfRounds: 32 });
  keys.lockedOpenssh = await readFile(path.join(dir, 'locked-openssh'), 'utf8');
  keeperEmail = (await t.staff.keeper.json<{ email: string }>('GET', '/api/me')).body.email;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

type Refusal = { error: string; fields?: Record<string, string>; code?: string };

async function create(body: Record<string, unknown>): Promise<Credential> {
  const { status, body: credential } = await t.staff.keeper.json<Credential>(
    'POST',
    '/api/credentials',
    body,
  );
  expect(status, JSON.stringify(credential)).toBe(201);
  return credential;
}

async function refused(method: string, url: string, body: unknown, status = 400) {
  const answer = await t.staff.keeper.json<Refusal>(method, url, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

async function reveal(id: string, purpose?: 'reveal' | 'copy') {
  const response = await t.staff.keeper.request(
    'POST',
    `/api/credentials/${id}/reveal`,
    purpose === undefined ? {} : { purpose },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return (await response.json()) as CredentialSecret;
}

/** The credential's events, oldest first: kind and fields, as stored. */
async function eventsOf(id: string) {
  const rows = await t.server.app.parts.db.kysely
    .selectFrom('event')
    .selectAll()
    .where('credentialId', '=', id)
    .orderBy('seq')
    .execute();
  for (const row of rows) {
    expect(row.clientId).toBeNull();
    expect(row.actorName).toBe(keeperEmail);
  }
  return rows.map((row) => ({ kind: row.kind, fields: JSON.parse(row.fields) as string[] }));
}

/** A client with a server labelled `label`, using the credential `credentialId`. */
async function serverUsing(
  client: { name: string; code: string },
  label: string,
  credentialId: string,
) {
  const made = await t.staff.keeper.json<Client>('POST', '/api/clients', {
    ...client,
    server: { host: `${label}.example.com` },
  });
  expect(made.status).toBe(201);
  const { body } = await t.staff.keeper.json<ServerList>(
    'GET',
    `/api/servers?clientId=${made.body.id}`,
  );
  const id = body.servers[0]!.id;
  // The servers' own write routes are not this feature's: attached as they will attach it.
  await t.server.app.parts.db.kysely
    .updateTable('server')
    .set({ label, credentialId })
    .where('id', '=', id)
    .execute();
  return { client: made.body, serverId: id };
}

describe('POST /api/credentials', () => {
  it('generates an Ed25519 key in the server and keeps only its public half in view', async () => {
    const credential = await create({
      name: 'Deploy key (prod) ü',
      kind: 'ssh-key',
      generate: 'ed25519',
    });
    expect(credential).toMatchObject({
      name: 'Deploy key (prod) ü',
      kind: 'ssh-key',
      hasPassphrase: false,
      servers: [],
      createdBy: keeperEmail,
      updatedBy: keeperEmail,
      revealedAt: null,
      revealedBy: null,
      version: 1,
    });
    expect(credential.publicKey).toMatch(/^ssh-ed25519 AAAA[\w+/=]+ Deploy-key-prod-u$/);
    expect(credential.fingerprint).toMatch(/^SHA256:[\w+/]{43}$/);
    expect(JSON.stringify(credential)).not.toContain('PRIVATE KEY');

    const { secret, passphrase } = await reveal(credential.id);
    expect(passphrase).toBeNull();
    const read = describePrivateKey(secret);
    expect(read.fingerprint.fingerprint).toBe(credential.fingerprint);
    expect(await eventsOf(credential.id)).toEqual([
      {
        kind: 'credential.created',
        fields: ['name', 'kind', 'secret', 'publicKey', 'fingerprint'],
      },
      { kind: 'credential.revealed', fields: ['reveal'] },
    ]);
  });

  it('generates RSA 4096 on request, its comment a plain fallback for a name of symbols', async () => {
    const credential = await create({ name: '***', kind: 'ssh-key', generate: 'rsa' });
    expect(credential.publicKey).toMatch(/^ssh-rsa AAAA[\w+/=]+ clients-manager$/);
    const { secret } = await reveal(credential.id, 'copy');
    // 4096 bits: a 512-byte modulus in the public blob.
    const blob = Buffer.from(credential.publicKey!.split(' ')[1]!, 'base64');
    expect(blob.length).toBeGreaterThan(520);
    expect(describePrivateKey(secret).publicKey.split(' ')[1]).toBe(
      credential.publicKey!.split(' ')[1],
    );
  }, 60_000);

  it('takes a pasted OpenSSH key and a PEM key, as pasted, with the fingerprint OpenSSH shows', async () => {
    for (const [name, text] of [
      ['OpenSSH key', keys.openssh],
      ['PEM key', keys.pem],
    ] as const) {
      const credential = await create({ name, kind: 'ssh-key', privateKey: text });
      const expected = describePrivateKey(text);
      expect(credential).toMatchObject({
        publicKey: expected.publicKey,
        fingerprint: expected.fingerprint.fingerprint,
        hasPassphrase: false,
      });
      expect(await reveal(credential.id)).toEqual({ secret: text, passphrase: null });
    }
    const pasted = await create({
      name: 'With comment',
      kind: 'ssh-key',
      privateKey: keys.openssh,
    });
    expect(pasted.publicKey).toBe(keys.opensshPub.trim());
  });

  it('takes a passphrase key with its passphrase, and names the passphrase when it is wrong or missing', async () => {
    const credential = await create({
      name: 'Locked key',
      kind: 'ssh-key',
      privateKey: keys.locked,
      passphrase: PASSPHRASE,
    });
    expect(credential).toMatchObject({ hasPassphrase: true });
    expect(credential.fingerprint).toBe(
      describePrivateKey(keys.locked, PASSPHRASE).fingerprint.fingerprint,
    );
    expect(await reveal(credential.id)).toEqual({ secret: keys.locked, passphrase: PASSPHRASE });
    expect((await eventsOf(credential.id))[0]!.fields).toEqual([
      'name',
      'kind',
      'secret',
      'passphrase',
      'publicKey',
      'fingerprint',
    ]);

    const wrong = await refused('POST', '/api/credentials', {
      name: 'Locked key',
      kind: 'ssh-key',
      privateKey: keys.locked,
      passphrase: 'not it',
    });
    expect(wrong.fields).toEqual({ passphrase: 'The passphrase does not open this key' });
    expect(wrong.error).not.toContain('not it');
    const missing = await refused('POST', '/api/credentials', {
      name: 'Locked key',
      kind: 'ssh-key',
      privateKey: keys.locked,
    });
    expect(missing.fields).toEqual({
      passphrase: 'This key is protected by a passphrase: enter it',
    });
  });

  it('opens an OpenSSH key with its passphrase while the server goes on answering', async () => {
    const openingMs = blockingMs(() => describePrivateKey(keys.lockedOpenssh, PASSPHRASE));
    const { results, stallMs } = await leastStall(3, (run) =>
      create({
        name: `Locked OpenSSH key ${run + 1}`,
        kind: 'ssh-key',
        privateKey: keys.lockedOpenssh,
        passphrase: PASSPHRASE,
      }),
    );
    for (const credential of results) {
      expect(credential).toMatchObject({
        hasPassphrase: true,
        fingerprint: describePrivateKey(keys.lockedOpenssh, PASSPHRASE).fingerprint.fingerprint,
      });
    }
    expect(stallMs).toBeLessThan(openingMs / 2);
  });

  it('refuses, at once, a key edited to take billions of bcrypt rounds, on create and rotate', async () => {
    // Opened as it claims, it would keep a core busy for days: refused before any is run.
    const endless = withKdfRounds(keys.lockedOpenssh, 0xffffffff);
    const body = { privateKey: endless, passphrase: PASSPHRASE };
    const made = await refused('POST', '/api/credentials', {
      name: 'Endless',
      kind: 'ssh-key',
      ...body,
    });
    expect(Object.keys(made.fields!)).toEqual(['passphrase']);
    expect(made.fields!.passphrase).toMatch(/more than 1000 bcrypt rounds/);
    const credential = await create({
      name: 'Endless later',
      kind: 'ssh-key',
      generate: 'ed25519',
    });
    const rotated = await refused('POST', `/api/credentials/${credential.id}/rotate`, {
      version: 1,
      ...body,
    });
    expect(rotated.fields).toEqual(made.fields);
  });

  it('drops a passphrase given for a key that has none', async () => {
    const credential = await create({
      name: 'Open key',
      kind: 'ssh-key',
      privateKey: keys.openssh,
      passphrase: 'unneeded',
    });
    expect(credential.hasPassphrase).toBe(false);
    expect((await reveal(credential.id)).passphrase).toBeNull();
  });

  it('takes an empty passphrase as none, with a generated key or a token', async () => {
    const generated = await create({
      name: 'Form key',
      kind: 'ssh-key',
      generate: 'ed25519',
      passphrase: '',
    });
    expect(generated.hasPassphrase).toBe(false);
    const token = await create({
      name: 'Form token',
      kind: 'token',
      secret: 'tok1',
      passphrase: '',
    });
    expect(await reveal(token.id)).toEqual({ secret: 'tok1', passphrase: null });
  });

  it('refuses a .pub file, garbage and a mixed body, naming the field and quoting nothing', async () => {
    const pub = await refused('POST', '/api/credentials', {
      name: 'Public',
      kind: 'ssh-key',
      privateKey: keys.opensshPub,
    });
    expect(Object.keys(pub.fields ?? {})).toEqual(['privateKey']);
    expect(pub.error).not.toContain('AAAA');
    for (const garbage of [
      'hello',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nzzzz\n-----END OPENSSH PRIVATE KEY-----\n',
    ]) {
      const answer = await refused('POST', '/api/credentials', {
        name: 'Garbage',
        kind: 'ssh-key',
        privateKey: garbage,
      });
      expect(answer.fields).toEqual({
        privateKey: 'This is not a private key in OpenSSH or PEM format',
      });
    }
    const both = await refused('POST', '/api/credentials', {
      name: 'Both',
      kind: 'ssh-key',
      generate: 'ed25519',
      privateKey: keys.openssh,
    });
    expect(Object.keys(both.fields ?? {})).toEqual(['privateKey']);
    const keyAsPassword = await refused('POST', '/api/credentials', {
      name: 'Odd',
      kind: 'password',
      privateKey: keys.openssh,
    });
    expect(Object.keys(keyAsPassword.fields ?? {})).toEqual(['privateKey']);
    expect(JSON.stringify(keyAsPassword)).not.toContain('PRIVATE KEY');
    const nameless = await refused('POST', '/api/credentials', {
      name: ' ',
      kind: 'token',
      secret: 'tok1',
    });
    expect(Object.keys(nameless.fields ?? {})).toEqual(['name']);
  });

  it('refuses a password or token too short for run logs to hide, naming the field', async () => {
    for (const kind of ['password', 'token'] as const) {
      const short = await refused('POST', '/api/credentials', {
        name: 'Short',
        kind,
        secret: 'abc',
      });
      expect(short.fields).toEqual({ secret: SHORT_SECRET_MESSAGE });
      expect(short.error).not.toContain('abc');
    }
    const credential = await create({ name: 'Long enough', kind: 'password', secret: 'abcd' });
    const rotated = await refused('POST', `/api/credentials/${credential.id}/rotate`, {
      version: 1,
      secret: 'xyz',
    });
    expect(rotated.fields).toEqual({ secret: SHORT_SECRET_MESSAGE });
    expect(await reveal(credential.id)).toEqual({ secret: 'abcd', passphrase: null });
  });

  it('keeps a password and a token sealed, and gives them back on a reveal', async () => {
    for (const kind of ['password', 'token'] as const) {
      const secret = `${kind} s3cret "quoted" ü`;
      const credential = await create({ name: `A ${kind}`, kind, secret });
      expect(credential).toMatchObject({
        kind,
        publicKey: null,
        fingerprint: null,
        hasPassphrase: false,
      });
      const stored = await t.server.app.parts.db.kysely
        .selectFrom('credential')
        .select('secret')
        .where('id', '=', credential.id)
        .executeTakeFirstOrThrow();
      expect(stored.secret).not.toContain('s3cret');
      expect(await reveal(credential.id)).toEqual({ secret, passphrase: null });
      expect((await eventsOf(credential.id))[0]).toEqual({
        kind: 'credential.created',
        fields: ['name', 'kind', 'secret'],
      });
    }
  });
});

describe('GET /api/credentials', () => {
  it('lists every credential by name with the servers that use it, and one by id', async () => {
    const key = await create({ name: 'aaa shared key', kind: 'ssh-key', privateKey: keys.pem });
    const acme = await serverUsing({ name: 'Acme Listed', code: 'ACL' }, 'production', key.id);
    const { body, status } = await t.staff.keeper.json<CredentialList>('GET', '/api/credentials');
    expect(status).toBe(200);
    const names = body.credentials.map((c) => c.name);
    expect(names).toEqual(
      [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
    const listed = body.credentials.find((c) => c.id === key.id)!;
    expect(listed.servers).toEqual([
      {
        id: acme.serverId,
        label: 'production',
        client: { id: acme.client.id, name: 'Acme Listed', code: 'ACL' },
      },
    ]);
    // The client form's password is in the vault too, used by its client's server.
    const withPassword = await t.staff.keeper.json<Client>('POST', '/api/clients', {
      name: 'Formed',
      code: 'FRM',
      server: { host: 'formed.example.com', password: 'form s3cret' },
    });
    const { body: again } = await t.staff.keeper.json<CredentialList>('GET', '/api/credentials');
    const formPassword = again.credentials.find((c) => c.name === 'Password of Formed (FRM)');
    expect(formPassword).toMatchObject({
      kind: 'password',
      servers: [
        { label: 'main', client: { id: withPassword.body.id, name: 'Formed', code: 'FRM' } },
      ],
    });
    expect(await reveal(formPassword!.id)).toEqual({ secret: 'form s3cret', passphrase: null });
    const one = await t.staff.keeper.json<Credential>('GET', `/api/credentials/${key.id}`);
    expect(one).toEqual({ status: 200, body: listed });
    expect(JSON.stringify(body)).not.toMatch(/PRIVATE KEY|sesame|s3cret/);

    expect((await t.staff.keeper.json('GET', '/api/credentials/noSuchCredential1')).status).toBe(
      404,
    );
    expect(
      Object.keys((await refused('GET', '/api/credentials/bad%20id', undefined)).fields!),
    ).toEqual(['id']);
  });
});

describe('PUT /api/credentials/:id', () => {
  it('renames, and refuses a stale version with 409', async () => {
    const credential = await create({ name: 'Old name', kind: 'token', secret: 'tok1' });
    const renamed = await t.staff.keeper.json<Credential>(
      'PUT',
      `/api/credentials/${credential.id}`,
      {
        name: 'New name',
        version: 1,
      },
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'New name', version: 2, updatedBy: keeperEmail });
    const stale = await refused(
      'PUT',
      `/api/credentials/${credential.id}`,
      { name: 'Late name', version: 1 },
      409,
    );
    expect(stale.error).toMatch(/changed by .* after you opened it/);
    expect(stale.code).toBe(STALE_VERSION_CODE);
    expect(
      (await t.staff.keeper.json<Credential>('GET', `/api/credentials/${credential.id}`)).body.name,
    ).toBe('New name');
    expect(await eventsOf(credential.id)).toEqual([
      { kind: 'credential.created', fields: ['name', 'kind', 'secret'] },
      { kind: 'credential.updated', fields: ['name'] },
    ]);
    await refused('PUT', '/api/credentials/noSuchCredential1', { name: 'x', version: 1 }, 404);
  });
});

describe('POST /api/credentials/:id/rotate', () => {
  it('replaces a key with a pasted one with its passphrase, raising the version', async () => {
    const credential = await create({ name: 'Rotating key', kind: 'ssh-key', generate: 'ed25519' });
    const rotated = await t.staff.keeper.json<Credential>(
      'POST',
      `/api/credentials/${credential.id}/rotate`,
      { version: 1, privateKey: keys.locked, passphrase: PASSPHRASE },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      version: 2,
      hasPassphrase: true,
      fingerprint: describePrivateKey(keys.locked, PASSPHRASE).fingerprint.fingerprint,
    });
    expect(await reveal(credential.id)).toEqual({ secret: keys.locked, passphrase: PASSPHRASE });

    // Back to a generated key: the passphrase goes with the old key.
    const again = await t.staff.keeper.json<Credential>(
      'POST',
      `/api/credentials/${credential.id}/rotate`,
      { version: 2, generate: 'ed25519' },
    );
    expect(again.body).toMatchObject({ version: 3, hasPassphrase: false });
    expect(again.body.fingerprint).not.toBe(rotated.body.fingerprint);
    expect((await reveal(credential.id)).passphrase).toBeNull();
    expect((await eventsOf(credential.id)).map((e) => `${e.kind} ${e.fields.join(',')}`)).toEqual([
      'credential.created name,kind,secret,publicKey,fingerprint',
      'credential.rotated secret,passphrase,publicKey,fingerprint',
      'credential.revealed reveal',
      'credential.rotated secret,passphrase,publicKey,fingerprint',
      'credential.revealed reveal',
    ]);

    const staleRotate = await refused(
      'POST',
      `/api/credentials/${credential.id}/rotate`,
      { version: 1, generate: 'ed25519' },
      409,
    );
    expect(staleRotate.code).toBe(STALE_VERSION_CODE);
    const wrong = await refused('POST', `/api/credentials/${credential.id}/rotate`, {
      version: 3,
      privateKey: keys.locked,
      passphrase: 'wrong',
    });
    expect(Object.keys(wrong.fields!)).toEqual(['passphrase']);
  });

  it('takes the fields of the stored kind only', async () => {
    const credential = await create({
      name: 'Rotating password',
      kind: 'password',
      secret: 'one1',
    });
    const asKey = await refused('POST', `/api/credentials/${credential.id}/rotate`, {
      version: 1,
      generate: 'ed25519',
    });
    expect(asKey.fields).toEqual({ generate: 'A password takes a secret, not an SSH key' });
    const empty = await refused('POST', `/api/credentials/${credential.id}/rotate`, { version: 1 });
    expect(Object.keys(empty.fields!)).toEqual(['secret']);
    const rotated = await t.staff.keeper.json<Credential>(
      'POST',
      `/api/credentials/${credential.id}/rotate`,
      { version: 1, secret: 'two2' },
    );
    expect(rotated.body.version).toBe(2);
    expect(await reveal(credential.id)).toEqual({ secret: 'two2', passphrase: null });
    await refused(
      'POST',
      '/api/credentials/noSuchCredential1/rotate',
      { version: 1, secret: 'tok1' },
      404,
    );
  });
});

describe('POST /api/credentials/:id/reveal', () => {
  it('records who revealed it and when, without raising the version', async () => {
    const credential = await create({ name: 'Watched token', kind: 'token', secret: 'watched' });
    expect(await reveal(credential.id, 'copy')).toEqual({ secret: 'watched', passphrase: null });
    const { body } = await t.staff.keeper.json<Credential>(
      'GET',
      `/api/credentials/${credential.id}`,
    );
    expect(body).toMatchObject({ version: 1, revealedBy: keeperEmail });
    expect(Date.parse(body.revealedAt!)).toBeGreaterThanOrEqual(Date.parse(credential.createdAt));
    expect((await eventsOf(credential.id)).at(-1)).toEqual({
      kind: 'credential.revealed',
      fields: ['copy'],
    });
    const bad = await refused('POST', `/api/credentials/${credential.id}/reveal`, {
      purpose: 'print',
    });
    expect(Object.keys(bad.fields!)).toEqual(['purpose']);
    await refused('POST', '/api/credentials/noSuchCredential1/reveal', {}, 404);
    // A GET of the path is no reveal.
    expect(
      (await t.staff.keeper.json('GET', `/api/credentials/${credential.id}/reveal`)).status,
    ).toBe(404);
  });
});

describe('DELETE /api/credentials/:id', () => {
  it('is refused with 409 naming the servers that use it, and allowed once unused', async () => {
    const key = await create({ name: 'Busy key', kind: 'ssh-key', generate: 'ed25519' });
    const acme = await serverUsing({ name: 'Acme', code: 'ACME' }, 'production', key.id);
    // A second server of the same client.
    const db = t.server.app.parts.db.kysely;
    const first = await db
      .selectFrom('server')
      .selectAll()
      .where('id', '=', acme.serverId)
      .executeTakeFirstOrThrow();
    const stagingId = newRecordId();
    await db
      .insertInto('server')
      .values({ ...first, id: stagingId, label: 'staging', position: first.position + 1 })
      .execute();

    const busy = await refused('DELETE', `/api/credentials/${key.id}`, undefined, 409);
    expect(busy.error).toBe('Used by 2 servers: production of Acme (ACME), staging of Acme (ACME)');
    expect((await t.staff.keeper.json('GET', `/api/credentials/${key.id}`)).status).toBe(200);

    await db
      .updateTable('server')
      .set({ credentialId: null })
      .where('credentialId', '=', key.id)
      .execute();
    expect((await t.staff.keeper.request('DELETE', `/api/credentials/${key.id}`)).status).toBe(204);
    expect((await t.staff.keeper.json('GET', `/api/credentials/${key.id}`)).status).toBe(404);
    expect((await eventsOf(key.id)).map((e) => e.kind)).toEqual([
      'credential.created',
      'credential.deleted',
    ]);
    await refused('DELETE', `/api/credentials/${key.id}`, undefined, 404);
  });
});

describe('the events of the vault', () => {
  it('carry field names only, never a secret', async () => {
    const rows = await t.server.app.parts.db.kysely
      .selectFrom('event')
      .selectAll()
      .where('kind', 'like', 'credential.%')
      .execute();
    expect(rows.length).toBeGreaterThan(10);
    const text = JSON.stringify(rows);
    for (const secret of [PASSPHRASE, 's3cret', 'watched', 'PRIVATE KEY', 'AAAA']) {
      expect(text).not.toContain(secret);
    }
  });
});
