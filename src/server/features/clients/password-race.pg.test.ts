import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Credential, CredentialSecret } from '#shared/credentials.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { holdEventLock, lockWaiters } from '#server/testing/event-lock.ts';

/**
 * The client form's password and the vault's rotate write the same credential. On PostgreSQL
 * the form read the credential's version without a lock: a rotate committed meanwhile was then
 * overwritten at the version it had already raised, so the version no longer counted the
 * changes (an edit made against the rotate's version would pass over the form's password).
 * Made to happen every time: the rotate is held at its last step (the event log's lock), its
 * credential row written, until the form's save waits on that row.
 */
const t = serveThisFile({ staff: { editor: { name: 'Eddie Editor', role: 'editor' } } });

describe("a client's password saved while the vault rotates it", () => {
  it('raises the version once for each, and keeps the later password', async () => {
    const db = t.server.app.parts.db.kysely;
    const created = await t.staff.editor.json<Client>('POST', '/api/clients', {
      name: 'Raced password',
      server: { host: 'raced.example', password: 'first-password-1' },
    });
    expect(created.status).toBe(201);
    const client = created.body;
    const { credentialId } = await db
      .selectFrom('client')
      .innerJoin('server', 'server.id', 'client.primaryServerId')
      .select('server.credentialId')
      .where('client.id', '=', client.id)
      .executeTakeFirstOrThrow();
    const before = await t.staff.editor.json<Credential>('GET', `/api/credentials/${credentialId}`);

    const lock = await holdEventLock(db);
    const rotate = t.staff.editor.json<Credential>(
      'POST',
      `/api/credentials/${credentialId}/rotate`,
      {
        version: before.body.version,
        secret: 'rotated-password-2',
      },
    );
    await expect.poll(lockWaiters(db, 'advisory')).toBe(1);
    const save = t.staff.editor.json<Client>('PUT', `/api/clients/${client.id}`, {
      name: client.name,
      server: { host: 'raced.example', password: 'form-password-3' },
      version: client.version,
    });
    await expect.poll(lockWaiters(db, 'transactionid')).toBe(1);
    await lock.release();
    const [rotated, saved] = await Promise.all([rotate, save]);
    expect([rotated.status, saved.status]).toEqual([200, 200]);

    const after = await t.staff.editor.json<Credential>('GET', `/api/credentials/${credentialId}`);
    expect(after.body.version).toBe(before.body.version + 2);
    const secret = await t.staff.editor.json<CredentialSecret>(
      'POST',
      `/api/credentials/${credentialId}/reveal`,
      { purpose: 'reveal' },
    );
    expect(secret.body.secret).toBe('form-password-3');
  });
});
