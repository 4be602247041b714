import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientExport, ExportedClient } from '#shared/client-transfer.ts';
import type { Db } from '#server/db/database.ts';
import { SecretBox } from '#server/secrets.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { verifiedUserRow } from '#server/testing/user-rows.ts';
import { addServerRow } from '#server/testing/server-records.ts';
import { blockingMs, leastStall } from '#server/testing/event-loop-stall.ts';
import { sshKeygen, sshKeyText } from '#server/testing/sshd.ts';
import { describePrivateKey } from '#server/ssh/ssh-keys.ts';
import { ClientRepository } from '#server/features/clients/client-repository.ts';
import { CredentialRepository } from '#server/features/credentials/credential-repository.ts';
import { materialOf } from '#server/features/credentials/credential-material.ts';
import { exportClients } from './client-export.ts';
import { importClients } from './client-import.ts';
import { ImportFileError } from './import-mapping.ts';

/**
 * Export version 2 (every server of a client and the vault credentials they use) and its
 * import, on the database under test; a version 1 file still imports.
 */

const actor = { id: null, name: 'transfer test' };
const apply = { dryRun: false, skipInvalid: false, actor };
const HOST_KEY = { algorithm: 'ssh-ed25519', fingerprint: `SHA256:${'A'.repeat(43)}` };
const OTHER_KEY = { algorithm: 'ssh-rsa', fingerprint: `SHA256:${'B'.repeat(43)}` };
const PASSPHRASE = 'phrase with spaces ü';

/** One database with its repositories; every test that writes opens its own. */
interface Side {
  db: Db;
  box: SecretBox;
  clients: ClientRepository;
  vault: CredentialRepository;
  close(): Promise<void>;
}

/** A person, for what only a signed-in person does (reveal a secret); in every database. */
const person = { id: 'transfer-person', name: 'person@example.test' };

async function openSide(): Promise<Side> {
  const { db, close } = await openTestDatabase();
  const now = new Date().toISOString();
  await db.kysely
    .insertInto('user')
    .values(verifiedUserRow(db.dialect, person.id, now, { name: 'Person', email: person.name }))
    .execute();
  const box = new SecretBox(randomBytes(32).toString('hex'));
  return {
    db,
    box,
    clients: new ClientRepository(db, box, () => undefined),
    vault: new CredentialRepository(db, box, () => undefined),
    close,
  };
}

async function count(
  side: Side,
  table: 'client' | 'server' | 'credential' | 'event',
): Promise<number> {
  const row = await side.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Adds a server to a client, straight to the database, by the test's actor. */
function addServer(side: Side, clientId: string, fields: Parameters<typeof addServerRow>[2]) {
  return addServerRow(side.db, clientId, fields, actor);
}

/**
 * What must come through an export and import as it was: not when or by whom it was made, nor
 * the list's order (by creation time, which an import sets to its own).
 */
function comparable(file: ClientExport) {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
  return {
    credentials: file.credentials,
    clients: [...file.clients]
      .sort(byId)
      .map(
        ({ createdAt: _c, createdBy: _cb, updatedAt: _u, updatedBy: _ub, version: _v, ...c }) => c,
      ),
  };
}

let keys: { plain: string; locked: string };
let source: Side;
/** Ids in the source database. */
let ids: {
  acme: string;
  beta: string;
  plainKey: string;
  lockedKey: string;
  token: string;
  password: string;
};

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-transfer-keys-'));
  try {
    await sshKeygen(path.join(dir, 'plain'));
    // Every copy and import below reads the key with its passphrase: one round of the key
    // derivation, not OpenSSH's 16, or the reads are most of this file's time.
    await sshKeygen(path.join(dir, 'locked'), { passphrase: PASSPHRASE, kdfRounds: 1 });
    keys = {
      plain: await readFile(path.join(dir, 'plain'), 'utf8'),
      locked: await readFile(path.join(dir, 'locked'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  source = await openSide();
  const acme = await source.clients.create(
    {
      ...values('Acme', 'ACM'),
      server: { ...values('', '').server, host: 'acme.example', password: 'pw-acme' },
    },
    person,
  );
  const beta = await source.clients.create(values('Beta', 'BET'), person);
  const plainKey = await source.vault.create(
    { name: 'Deploy key', kind: 'ssh-key' },
    await materialOf('ssh-key', { privateKey: keys.plain }, 'Deploy key'),
    person,
  );
  const lockedKey = await source.vault.create(
    { name: 'Locked key', kind: 'ssh-key' },
    await materialOf('ssh-key', { privateKey: keys.locked, passphrase: PASSPHRASE }, 'Locked key'),
    person,
  );
  const token = await source.vault.create(
    { name: 'API token', kind: 'token' },
    await materialOf('token', { secret: 'tok-123' }, 'API token'),
    person,
  );
  await addServer(source, acme.id, {
    label: 'staging',
    host: 'staging.acme.example',
    port: 2222,
    credentialId: plainKey.id,
    hostKey: HOST_KEY,
  });
  await addServer(source, acme.id, { label: 'backup', host: '10.0.0.9', credentialId: token.id });
  // Beta's primary is its second server; its first has no host yet.
  await addServer(source, beta.id, { label: 'draft', host: '' });
  const prod = await addServer(source, beta.id, {
    label: 'prod',
    host: 'beta.example',
    credentialId: lockedKey.id,
  });
  await addServer(source, beta.id, {
    label: 'tokened',
    host: 'b2.example',
    credentialId: token.id,
  });
  const oldPrimary = await source.db.kysely
    .selectFrom('client')
    .select('primaryServerId')
    .where('id', '=', beta.id)
    .executeTakeFirstOrThrow();
  await source.db.kysely
    .deleteFrom('server')
    .where('id', '=', oldPrimary.primaryServerId!)
    .execute();
  await source.db.kysely
    .updateTable('client')
    .set({ primaryServerId: prod })
    .where('id', '=', beta.id)
    .execute();
  const password = await source.db.kysely
    .selectFrom('server')
    .select('credentialId')
    .where('clientId', '=', acme.id)
    .where('label', '=', 'main')
    .executeTakeFirstOrThrow();
  ids = {
    acme: acme.id,
    beta: beta.id,
    plainKey: plainKey.id,
    lockedKey: lockedKey.id,
    token: token.id,
    password: password.credentialId!,
  };
});
afterAll(async () => source?.close());

function values(name: string, code: string) {
  return {
    name,
    code,
    description: '',
    tags: [],
    domains: [],
    server: { host: '', port: 22, username: '', private: true, uiDir: '' },
  };
}

function exported(file: ClientExport, id: string): ExportedClient {
  return file.clients.find((client) => client.id === id)!;
}

describe('export version 2', () => {
  it('lists every server of a client in order and the credentials they use, no secret', async () => {
    const events = await count(source, 'event');
    const { file, secretsRead } = await exportClients(source.db, source.box, source.clients, {
      secrets: false,
      actor,
    });
    expect(secretsRead).toBe(0);
    expect(await count(source, 'event')).toBe(events);
    expect(file).toMatchObject({ version: 2, includesSecrets: false });
    const acme = exported(file, ids.acme);
    expect(acme.server).toMatchObject({ host: 'acme.example', hasPassword: true });
    expect(acme.server.password).toBeUndefined();
    expect(acme.servers).toEqual([
      {
        label: 'main',
        host: 'acme.example',
        port: 22,
        username: '',
        uiDir: '',
        private: true,
        primary: true,
        credentialId: ids.password,
        hostKey: null,
      },
      {
        label: 'staging',
        host: 'staging.acme.example',
        port: 2222,
        username: 'deploy',
        uiDir: '/srv/ui',
        private: false,
        primary: false,
        credentialId: ids.plainKey,
        hostKey: HOST_KEY,
      },
      expect.objectContaining({ label: 'backup', primary: false, credentialId: ids.token }),
    ]);
    const beta = exported(file, ids.beta);
    expect(beta.servers.map((s) => [s.label, s.primary])).toEqual([
      ['draft', false],
      ['prod', true],
      ['tokened', false],
    ]);
    expect(beta.server).toMatchObject({ host: 'beta.example', hasPassword: false });
    expect(file.credentials.map((c) => c.id).sort()).toEqual(
      [ids.password, ids.plainKey, ids.lockedKey, ids.token].sort(),
    );
    for (const credential of file.credentials) {
      expect(credential).not.toHaveProperty('secret');
      expect(credential).not.toHaveProperty('passphrase');
    }
    const locked = file.credentials.find((c) => c.id === ids.lockedKey)!;
    expect(locked).toMatchObject({ name: 'Locked key', kind: 'ssh-key' });
    expect(locked.fingerprint).toMatch(/^SHA256:/);
    expect(JSON.stringify(file)).not.toContain('pw-acme');
    expect(JSON.stringify(file)).not.toContain('tok-123');
  });

  it('with secrets carries each secret once read, recording each read', async () => {
    const before = await count(source, 'event');
    const { file, secretsRead } = await exportClients(source.db, source.box, source.clients, {
      secrets: true,
      actor,
      ids: [ids.acme, ids.beta],
    });
    expect(exported(file, ids.acme).server.password).toBe('pw-acme');
    expect(exported(file, ids.beta).server.password).toBe('');
    const byId = new Map(file.credentials.map((c) => [c.id, c]));
    expect(byId.get(ids.password)).toMatchObject({ secret: 'pw-acme', passphrase: null });
    expect(byId.get(ids.token)).toMatchObject({ secret: 'tok-123', passphrase: null });
    expect(byId.get(ids.plainKey)).toMatchObject({ secret: keys.plain, passphrase: null });
    expect(byId.get(ids.lockedKey)).toMatchObject({ passphrase: PASSPHRASE });
    // The client's password as a password read; the vault's other secrets as revealed.
    const events = await source.db.kysely
      .selectFrom('event')
      .select(['kind', 'clientId', 'credentialId', 'fields'])
      .where('seq', '>', before)
      .execute();
    expect(secretsRead).toBe(4);
    expect(events).toHaveLength(4);
    expect(events).toContainEqual({
      kind: 'client.password_read',
      clientId: ids.acme,
      credentialId: null,
      fields: '["export"]',
    });
    for (const id of [ids.plainKey, ids.lockedKey, ids.token]) {
      expect(events).toContainEqual({
        kind: 'credential.revealed',
        clientId: null,
        credentialId: id,
        fields: '["export"]',
      });
    }
    // Each credential whose secret the file carries shows the read as its last reveal, the
    // client's password among them, as reading it on the client's page does.
    for (const id of [ids.token, ids.password]) {
      expect(await source.vault.get(id), id).toMatchObject({ revealedAt: expect.any(String) });
    }
  });
});

describe('import of version 2', () => {
  it('into an empty database gives the same servers and credentials; again, nothing changes', async () => {
    const { file } = await exportClients(source.db, source.box, source.clients, {
      secrets: true,
      actor,
    });
    const target = await openSide();
    try {
      const dry = await importClients(target.clients, file, { ...apply, dryRun: true });
      expect(dry.report).toMatchObject({ applied: false, created: 2, credentialsCreated: 4 });
      for (const table of ['client', 'server', 'credential', 'event'] as const) {
        expect(await count(target, table)).toBe(0);
      }
      const first = await importClients(target.clients, file, apply);
      expect(first).toMatchObject({
        status: 'applied',
        report: { created: 2, updated: 0, unchanged: 0, credentialsCreated: 4, invalid: [] },
      });
      expect(first.report.warnings).toEqual([]);
      const again = await exportClients(target.db, target.box, target.clients, {
        secrets: false,
        actor,
      });
      const plain = await exportClients(source.db, source.box, source.clients, {
        secrets: false,
        actor,
      });
      expect(comparable(again.file)).toEqual(comparable(plain.file));
      for (const id of [ids.plainKey, ids.lockedKey, ids.token, ids.password]) {
        expect(await target.vault.reveal(id, 'reveal', person)).toEqual(
          await source.vault.reveal(id, 'reveal', person),
        );
      }
      expect(await target.clients.readPassword(ids.acme, person)).toEqual({ password: 'pw-acme' });
      const created = await target.db.kysely
        .selectFrom('event')
        .select(['kind', 'fields'])
        .where('kind', '=', 'credential.created')
        .execute();
      expect(created).toHaveLength(4);
      expect(created).toContainEqual({
        kind: 'credential.created',
        fields: '["name","kind","secret","passphrase","publicKey","fingerprint","import"]',
      });

      // Our own export, imported again (on both sides): nothing to write.
      for (const side of [target, source]) {
        const events = await count(side, 'event');
        const repeat = await importClients(side.clients, file, apply);
        expect(repeat.report).toMatchObject({
          created: 0,
          updated: 0,
          unchanged: 2,
          credentialsCreated: 0,
        });
        expect(await count(side, 'event')).toBe(events);
      }
    } finally {
      await target.close();
    }
  });

  it('opens a key with a passphrase off the event loop, which goes on answering', async () => {
    // OpenSSH's own format with more rounds than the other tests' key: long enough to see.
    const slow = await sshKeyText({ passphrase: PASSPHRASE, kdfRounds: 32 });
    const { file } = await exportClients(source.db, source.box, source.clients, {
      secrets: true,
      actor,
    });
    const locked = file.credentials!.find((credential) => credential.id === ids.lockedKey)!;
    locked.secret = slow;
    const openingMs = blockingMs(() => describePrivateKey(slow, PASSPHRASE));
    const target = await openSide();
    try {
      const { results, stallMs } = await leastStall(3, () =>
        importClients(target.clients, file, { ...apply, dryRun: true }),
      );
      for (const result of results) {
        expect(result.report).toMatchObject({ created: 2, credentialsCreated: 4, invalid: [] });
      }
      expect(stallMs).toBeLessThan(openingMs / 2);
    } finally {
      await target.close();
    }
  });

  it('replaces the servers by label, keeping ids and pinned keys where host and port stay', async () => {
    const target = await openSide();
    try {
      const { file } = await exportClients(source.db, source.box, source.clients, {
        secrets: true,
        actor,
      });
      await importClients(target.clients, file, apply);
      const before = await target.db.kysely
        .selectFrom('server')
        .select(['id', 'label'])
        .where('clientId', '=', ids.acme)
        .execute();
      const labelled = new Map(before.map((s) => [s.label, s.id]));
      const acme = exported(file, ids.acme);
      const [main, staging] = acme.servers;
      const edited: ClientExport = {
        ...file,
        clients: file.clients.map((c) =>
          c.id !== ids.acme
            ? c
            : {
                ...c,
                // 'backup' goes, 'edge' comes, staging becomes the primary and keeps its pinned
                // key (same host and port) though the file names another one.
                servers: [
                  { ...staging!, primary: true, hostKey: OTHER_KEY },
                  { ...main!, primary: false },
                  { ...main!, label: 'edge', host: 'edge.acme.example', primary: false },
                ],
              },
        ),
      };
      const report = await importClients(target.clients, edited, apply);
      expect(report.report).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
      const after = await target.db.kysely
        .selectFrom('server')
        .selectAll()
        .where('clientId', '=', ids.acme)
        .orderBy('position')
        .execute();
      expect(after.map((s) => s.label)).toEqual(['staging', 'main', 'edge']);
      expect(after[0]).toMatchObject({
        id: labelled.get('staging'),
        hostKeyFingerprint: HOST_KEY.fingerprint,
      });
      expect(after[1]!.id).toBe(labelled.get('main'));
      const client = await target.db.kysely
        .selectFrom('client')
        .select(['primaryServerId', 'version'])
        .where('id', '=', ids.acme)
        .executeTakeFirstOrThrow();
      expect(client).toEqual({ primaryServerId: labelled.get('staging'), version: 2 });
      // The token 'backup' used stays in the vault; the client shows its new primary.
      expect(await target.vault.get(ids.token)).toBeDefined();
      expect(await target.clients.get(ids.acme)).toMatchObject({
        server: { host: 'staging.acme.example', port: 2222, hasPassword: false },
      });
      const event = await target.db.kysely
        .selectFrom('event')
        .select(['kind', 'fields'])
        .where('clientId', '=', ids.acme)
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      expect(event).toEqual({ kind: 'client.updated', fields: '["servers","import"]' });
      // The edited file again: the same state, so nothing changes.
      expect((await importClients(target.clients, edited, apply)).report).toMatchObject({
        updated: 0,
        unchanged: 2,
      });
    } finally {
      await target.close();
    }
  });

  // SQLite binds at most 32,766 values to a statement and PostgreSQL 65,535; a server row binds
  // 22, so a list this long cannot go in one INSERT on either.
  it('adds 3,000 servers to a client it has, and a duplicate of that client copies them all', async () => {
    const target = await openSide();
    try {
      const client = await target.clients.create(values('Many', 'MNY'), person);
      const { file } = await exportClients(target.db, target.box, target.clients, {
        secrets: false,
        actor,
      });
      const many = 3_000;
      const servers = Array.from({ length: many }, (_, i) => ({
        label: `s${i}`,
        host: `h${i}.example.test`,
        port: 22,
        username: 'deploy',
        uiDir: '',
        private: true,
        primary: i === 0,
        credentialId: null,
        hostKey: null,
      }));
      const edited = { ...file, clients: [{ ...exported(file, client.id), servers }] };
      const outcome = await importClients(target.clients, edited, apply);
      expect(outcome.report).toMatchObject({ updated: 1, invalid: [] });
      expect(await count(target, 'server')).toBe(many);
      const copy = await target.clients.duplicate(client.id, person);
      expect(copy).toMatchObject({ server: { host: 'h0.example.test' } });
      expect(await count(target, 'server')).toBe(2 * many);
    } finally {
      await target.close();
    }
  });

  it('never changes a credential the vault has, and reads the password from the credential only', async () => {
    const { file } = await exportClients(source.db, source.box, source.clients, {
      secrets: true,
      actor,
    });
    // `server.password` repeats the primary's for older readers; the credential decides.
    const edited: ClientExport = {
      ...file,
      clients: file.clients.map((c) =>
        c.id === ids.acme ? { ...c, server: { ...c.server, password: 'not-this-one' } } : c,
      ),
      credentials: file.credentials.map((c) =>
        c.id === ids.token ? { ...c, name: 'Renamed', secret: 'other-token' } : c,
      ),
    };
    const target = await openSide();
    try {
      await importClients(target.clients, edited, apply);
      expect(await target.clients.readPassword(ids.acme, person)).toEqual({ password: 'pw-acme' });
      const passwords = await target.db.kysely
        .selectFrom('credential')
        .select('id')
        .where('kind', '=', 'password')
        .execute();
      expect(passwords).toEqual([{ id: ids.password }]);
    } finally {
      await target.close();
    }
    // Into the source, whose vault has the token: it stays as it was.
    const report = await importClients(source.clients, edited, apply);
    expect(report.report).toMatchObject({ unchanged: 2, credentialsCreated: 0 });
    expect(await source.vault.get(ids.token)).toMatchObject({ name: 'API token' });
    expect(await source.vault.reveal(ids.token, 'reveal', person)).toEqual({
      secret: 'tok-123',
      passphrase: null,
    });
  });

  it('without secrets into an empty database: servers without credentials, each reported', async () => {
    const { file } = await exportClients(source.db, source.box, source.clients, {
      secrets: false,
      actor,
    });
    const target = await openSide();
    try {
      const outcome = await importClients(target.clients, file, apply);
      expect(outcome.report).toMatchObject({ created: 2, credentialsCreated: 0, invalid: [] });
      const acmeIndex = file.clients.findIndex((c) => c.id === ids.acme);
      const betaIndex = file.clients.findIndex((c) => c.id === ids.beta);
      expect(outcome.report.warnings.map((w) => [w.index, w.id, w.reason.split(':')[0]])).toEqual([
        [acmeIndex, ids.acme, 'servers.0.credentialId'],
        [acmeIndex, ids.acme, 'servers.1.credentialId'],
        [acmeIndex, ids.acme, 'servers.2.credentialId'],
        [betaIndex, ids.beta, 'servers.1.credentialId'],
        [betaIndex, ids.beta, 'servers.2.credentialId'],
      ]);
      expect(outcome.report.warnings[0]!.reason).toMatch(/no secret for credential "Password of/);
      expect(await count(target, 'credential')).toBe(0);
      expect(await count(target, 'server')).toBe(6);
      expect(await target.clients.get(ids.acme)).toMatchObject({
        server: { host: 'acme.example', hasPassword: false },
      });
    } finally {
      await target.close();
    }
  });
});

describe('import of version 1', () => {
  it('puts the server and its password into the primary server and a password credential', async () => {
    const target = await openSide();
    try {
      // As the previous version wrote it.
      const file = {
        format: 'clients-manager-export',
        version: 1,
        exportedAt: '2026-11-01T10:00:00.000Z',
        includesSecrets: true,
        clients: [
          {
            id: 'v1-client-1',
            name: 'Old Co',
            code: 'OLD',
            description: '',
            tags: ['legacy'],
            startDate: '2024-01-02',
            server: {
              host: 'old.example',
              port: 2200,
              username: 'root',
              private: true,
              uiDir: '/var/www',
              hasPassword: true,
              password: 'v1-secret',
            },
            domains: [],
            createdAt: '2024-01-02T00:00:00.000Z',
            createdBy: null,
            updatedAt: '2024-01-02T00:00:00.000Z',
            updatedBy: null,
            version: 3,
          },
        ],
      };
      const outcome = await importClients(target.clients, file, apply);
      expect(outcome.report).toMatchObject({ created: 1, credentialsCreated: 0, warnings: [] });
      const servers = await target.db.kysely
        .selectFrom('server')
        .innerJoin('credential', 'credential.id', 'server.credentialId')
        .select(['server.label', 'server.host', 'server.port', 'credential.kind'])
        .execute();
      expect(servers).toEqual([
        { label: 'main', host: 'old.example', port: 2200, kind: 'password' },
      ]);
      expect(await target.clients.readPassword('v1-client-1', person)).toEqual({
        password: 'v1-secret',
      });
      expect((await importClients(target.clients, file, apply)).report).toMatchObject({
        unchanged: 1,
      });
    } finally {
      await target.close();
    }
  });
});

describe('bad input', () => {
  it('names the document and the field, and writes nothing', async () => {
    const { file } = await exportClients(source.db, source.box, source.clients, {
      secrets: true,
      actor,
    });
    const [first, second] = file.clients;
    const bad: ClientExport = {
      ...file,
      clients: [
        { ...first!, id: 'bad-0', servers: [{ ...first!.servers[0]!, host: '-oProxyCommand=x' }] },
        {
          ...second!,
          id: 'bad-1',
          servers: [{ ...second!.servers[0]!, credentialId: 'no-such-credential' }],
        },
        {
          ...second!,
          id: 'bad-2',
          servers: [
            second!.servers[0]!,
            { ...second!.servers[1]!, label: second!.servers[0]!.label },
          ],
        },
        {
          // The server routes refuse a label differing only in case, so the import does too.
          ...second!,
          id: 'bad-3',
          servers: [
            second!.servers[0]!,
            { ...second!.servers[1]!, label: second!.servers[0]!.label.toUpperCase() },
          ],
        },
        { ...first!, id: 'good-4' },
      ],
    };
    const target = await openSide();
    try {
      const outcome = await importClients(target.clients, bad, apply);
      expect(outcome.status).toBe('refused');
      expect(outcome.report.invalid).toEqual([
        { index: 0, id: 'bad-0', reason: 'servers.0.host: Must be a host name or IP address' },
        {
          index: 1,
          id: 'bad-1',
          reason: `servers.0.credentialId: The file's "credentials" have no such id`,
        },
        {
          index: 2,
          id: 'bad-2',
          reason: 'servers.1.label: The same label as server 0; labels are unique within a client',
        },
        {
          index: 3,
          id: 'bad-3',
          reason: 'servers.1.label: The same label as server 0; labels are unique within a client',
        },
      ]);
      for (const table of ['client', 'server', 'credential', 'event'] as const) {
        expect(await count(target, table)).toBe(0);
      }
      // A credential that cannot be read makes the file unreadable: nothing is looked at.
      const broken = {
        ...file,
        credentials: file.credentials.map((c) =>
          c.id === ids.plainKey ? { ...c, secret: 'not a key' } : c,
        ),
      };
      const index = file.credentials.findIndex((c) => c.id === ids.plainKey);
      await expect(importClients(target.clients, broken, apply)).rejects.toThrow(ImportFileError);
      await expect(importClients(target.clients, broken, apply)).rejects.toThrow(
        `credentials.${index}.secret: `,
      );
      expect(await count(target, 'credential')).toBe(0);
    } finally {
      await target.close();
    }
  });
});
