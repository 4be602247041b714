import { beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientCommand } from '#shared/clients.ts';
import type { ClientExport } from '#shared/client-transfer.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import type { Session } from '#server/testing/test-server.ts';

/**
 * The rules some routes apply inside, beyond the permission table: a role without `secret`
 * gets no deployment command (it carries the access token) and no export with passwords.
 */
const t = serveThisFile({
  staff: {
    editor: { name: 'Editor', role: 'editor' },
    viewer: { name: 'Viewer', role: 'viewer' },
  },
});

const PASSWORD = 'secret-access-password';
const TOKEN = 'secret-access-token-1234';
let client: Client;

beforeAll(async () => {
  client = (
    await t.staff.editor.json<Client>('POST', '/api/clients', {
      name: 'Secretive',
      tags: ['prod'],
      server: { host: 'secret.example', username: 'deploy', password: PASSWORD },
    })
  ).body;
  // Both have a token: the viewer's is left out because of the role, not for lack of one.
  for (const session of [t.staff.editor, t.staff.viewer]) {
    const saved = await session.json('PUT', '/api/me/access-token', { accessToken: TOKEN });
    expect(saved.status).toBe(200);
  }
});

async function commands(session: Session): Promise<ClientCommand[]> {
  const answer = await session.json<{ commands: ClientCommand[] }>(
    'GET',
    `/api/clients/${client.id}/commands`,
  );
  expect(answer.status).toBe(200);
  return answer.body.commands;
}

async function passwordReads(): Promise<number> {
  const rows = await t.server.app.parts.db.kysely
    .selectFrom('event')
    .select('seq')
    .where('kind', '=', 'client.password_read')
    .where('clientId', '=', client.id)
    .execute();
  return rows.length;
}

describe('a role without the secret permission', () => {
  it('gets the SSH command but not the deployment command, which carries the token', async () => {
    const editor = await commands(t.staff.editor);
    expect(editor.map((c) => c.id)).toEqual(['deploy', 'ssh']);
    expect(editor[0]!.command).toContain(TOKEN);

    const viewer = await commands(t.staff.viewer);
    expect(viewer).toEqual([editor[1]]);
    expect(JSON.stringify(viewer)).not.toContain(TOKEN);
  });

  it('may export without passwords, and is refused an export with them', async () => {
    const before = await passwordReads();
    const plain = await t.staff.viewer.json<ClientExport>('GET', '/api/clients/export');
    expect(plain.status).toBe(200);
    expect(plain.body.includesSecrets).toBe(false);
    expect(JSON.stringify(plain.body)).not.toContain(PASSWORD);
    const selected = await t.staff.viewer.json<ClientExport>('POST', '/api/clients/export', {
      ids: [client.id],
    });
    expect(selected.status).toBe(200);
    expect(JSON.stringify(selected.body)).not.toContain(PASSWORD);

    const refusal = { status: 403, body: { error: 'Your role may not read secrets' } };
    expect(await t.staff.viewer.json('GET', '/api/clients/export?secrets=1')).toEqual(refusal);
    expect(
      await t.staff.viewer.json('POST', '/api/clients/export', { ids: [client.id], secrets: true }),
    ).toEqual(refusal);
    expect(await passwordReads()).toBe(before);
  });

  it('reads a client as everyone does: its password only as hasPassword', async () => {
    for (const session of [t.staff.editor, t.staff.viewer]) {
      const read = await session.json<Client>('GET', `/api/clients/${client.id}`);
      expect(read.status).toBe(200);
      expect(read.body.server).toMatchObject({ hasPassword: true });
      expect(JSON.stringify(read.body)).not.toContain(PASSWORD);
      const list = await session.json<unknown>('GET', '/api/clients');
      expect(JSON.stringify(list.body)).not.toContain(PASSWORD);
    }
  });
});

describe('a role with the secret permission', () => {
  it('exports with passwords, each read recorded', async () => {
    const before = await passwordReads();
    const file = await t.staff.editor.json<ClientExport>('POST', '/api/clients/export', {
      ids: [client.id],
      secrets: true,
    });
    expect(file.status).toBe(200);
    expect(file.body.clients[0]?.server.password).toBe(PASSWORD);
    expect(await passwordReads()).toBe(before + 1);
  });
});
