import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { Credential, CredentialList } from '#shared/credentials.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * The client form's password is a credential of the vault: what the form does to it is in the
 * vault's record too, so the vault's list follows it live and its removal is never silent.
 */
const t = serveThisFile({ staff: { member: { name: 'Fay Form' } } });

const PASSWORD = 'form password 8c1f';

async function credentialEvents(credentialId: string) {
  const rows = await t.server.app.parts.db.kysely
    .selectFrom('event')
    .select(['kind', 'clientId', 'credentialId', 'fields', 'actorName'])
    .where('credentialId', '=', credentialId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ ...row, fields: JSON.parse(row.fields) as string[] }));
}

async function formCredential(client: Client): Promise<Credential | undefined> {
  const { body } = await t.staff.member.json<CredentialList>('GET', '/api/credentials');
  return body.credentials.find((c) => c.servers.some((s) => s.client.id === client.id));
}

describe("the client form's password in the vault", () => {
  it('records its creation, replacement and removal as credential events, never the value', async () => {
    const created = await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Vaulted',
      code: 'VLT',
      server: { host: 'vault.example.com', username: 'deploy', password: PASSWORD },
    });
    expect(created.status).toBe(201);
    const credential = await formCredential(created.body);
    expect(credential).toMatchObject({ kind: 'password', name: 'Password of Vaulted (VLT)' });
    const id = credential!.id;

    const edit = (version: number, password: string) =>
      t.staff.member.json<Client>('PUT', `/api/clients/${created.body.id}`, {
        name: 'Vaulted',
        code: 'VLT',
        server: { host: 'vault.example.com', username: 'deploy', password },
        version,
      });
    const replaced = await edit(created.body.version, `${PASSWORD} new`);
    expect(replaced.status).toBe(200);
    const removed = await edit(replaced.body.version, '');
    expect(removed.status).toBe(200);
    expect(await formCredential(created.body)).toBeUndefined();

    const events = await credentialEvents(id);
    expect(events.map((e) => e.kind)).toEqual([
      'credential.created',
      'credential.rotated',
      'credential.deleted',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ clientId: null, credentialId: id });
      expect(event.actorName).toContain('@');
      expect(JSON.stringify(event)).not.toContain(PASSWORD);
    }
  });
});
