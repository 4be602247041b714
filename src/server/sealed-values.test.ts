import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Client } from '#shared/clients.ts';
import type { Database } from './db/schema.ts';
import { createCipheriv, randomBytes } from 'node:crypto';
import { SecretBox, clientPasswordPlace, deriveKey } from './secrets.ts';
import { openStoredSecrets } from './secret-key-rotation.ts';
import type { TestServer } from './testing/test-server.ts';
import { serveThisFile } from './testing/file-server.ts';

/**
 * A sealed secret opens only where it was sealed: its table, column and row are its AES-GCM
 * associated data, so a sealed password copied to another client's row (by someone with write
 * access to the database but not the key) does not open there. The tag is always 16 bytes.
 */

const KEY = 'a key for sealed value tests, long enough';

describe('SecretBox', () => {
  const box = new SecretBox(KEY);

  it('opens a value only at the place it was sealed for', () => {
    const sealed = box.seal('hunter2', clientPasswordPlace('client-a'));
    expect(box.open(sealed, clientPasswordPlace('client-a'))).toBe('hunter2');
    expect(() => box.open(sealed, clientPasswordPlace('client-b'))).toThrow();
  });

  it('refuses a truncated authentication tag', () => {
    const sealed = box.seal('hunter2', clientPasswordPlace('client-a'));
    const [version, iv, tag, data] = sealed.split('.');
    const short = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() =>
      box.open([version, iv, short, data].join('.'), clientPasswordPlace('client-a')),
    ).toThrow();
  });
});

/** The key the test server generated in its data folder. */
function keyOf(server: TestServer): string {
  return fs.readFileSync(path.join(server.dataDir, 'secret.key'), 'utf8').trim();
}

/** A value sealed as stored before places were bound: no associated data. */
function sealV1(secretKey: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(
    'aes-256-gcm',
    deriveKey(secretKey, 'clients-manager/secrets/v1'),
    iv,
  );
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('a sealed password copied to another client', () => {
  const t = serveThisFile({ staff: { member: { name: 'Staff' } } });

  it('does not open there, and says nothing of its plaintext', async () => {
    const create = async (name: string, password: string) =>
      (
        await t.staff.member.json<Client>('POST', '/api/clients', {
          name,
          server: { host: 'h', password },
        })
      ).body;
    const a = await create('A', 'password of A');
    const b = await create('B', 'password of B');
    const db = t.server.app.parts.db.kysely;
    const row = await passwordCredentialOf(db, a.id);
    const ofB = await passwordCredentialOf(db, b.id);
    await db
      .updateTable('credential')
      .set({ secret: row.secret })
      .where('id', '=', ofB.id)
      .execute();

    const response = await t.staff.member.request('GET', `/api/clients/${b.id}/password`);
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).not.toContain('password of A');
    expect((await t.staff.member.json('GET', `/api/clients/${a.id}/password`)).body).toEqual({
      password: 'password of A',
    });
    // The next start finds it too, and refuses to go on beside a value it cannot open.
    await expect(openStoredSecrets(db, keyOf(t.server))).rejects.toThrow(
      `SECRET_KEY does not open the secret of credential ${ofB.id} where it is stored.`,
    );
    await db
      .updateTable('credential')
      .set({ secret: ofB.secret })
      .where('id', '=', ofB.id)
      .execute();
  });

  it('is re-sealed for its row at start when it was stored before places were bound', async () => {
    const { body: client } = await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Old',
      server: { password: 'to be replaced' },
    });
    const db = t.server.app.parts.db.kysely;
    const credential = await passwordCredentialOf(db, client.id);
    await db
      .updateTable('credential')
      .set({ secret: sealV1(keyOf(t.server), 'from before') })
      .where('id', '=', credential.id)
      .execute();
    // A value of the old form still opens, and the start-up step binds it to its row.
    expect((await t.staff.member.json('GET', `/api/clients/${client.id}/password`)).body).toEqual({
      password: 'from before',
    });
    expect(await openStoredSecrets(db, keyOf(t.server))).toBe(1);
    expect((await passwordCredentialOf(db, client.id)).secret).toMatch(/^v2\./);
    expect((await t.staff.member.json('GET', `/api/clients/${client.id}/password`)).body).toEqual({
      password: 'from before',
    });
    expect(await openStoredSecrets(db, keyOf(t.server))).toBe(0);
  });
});

/** The credential that holds a client's password, through its primary server. */
function passwordCredentialOf(db: Kysely<Database>, clientId: string) {
  return db
    .selectFrom('client')
    .innerJoin('server', 'server.id', 'client.primaryServerId')
    .innerJoin('credential', 'credential.id', 'server.credentialId')
    .select(['credential.id', 'credential.secret'])
    .where('client.id', '=', clientId)
    .executeTakeFirstOrThrow();
}
