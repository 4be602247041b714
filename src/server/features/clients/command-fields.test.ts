import { describe, expect, it } from 'vitest';
import type { ApiError } from '#shared/api-error.ts';
import type { Client, ClientCommand } from '#shared/clients.ts';
import type { Me } from '#shared/account.ts';
import { SHORT_SECRET_MESSAGE } from '#shared/secret-length.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * The outside review pasted a copied deploy command whose tag held U+0003 and a newline into an
 * interactive bash: the tag's command ran on paste. Fields that reach a command refuse such
 * characters, and a row that holds one from before is shown with its command withheld.
 */

const t = serveThisFile({ staff: { member: { name: 'Staff' } } });

/** A client with a server, its maker's access token set: both its commands can be made. */
async function clientWithCommands(name: string, tags: string): Promise<Client> {
  const made = await t.staff.member.json<Client>('POST', '/api/clients', {
    name,
    tags,
    server: { host: 'web1.example.com', username: 'deploy' },
  });
  expect(made.status).toBe(201);
  const token = await t.staff.member.json('PUT', '/api/me/access-token', { accessToken: 'abc123' });
  expect(token.status).toBeLessThan(300);
  return made.body;
}

/** The deploy and SSH commands the panel would show for a client. */
async function commandsOf(clientId: string): Promise<ClientCommand[]> {
  const { status, body } = await t.staff.member.json<{ commands: ClientCommand[] }>(
    'GET',
    `/api/clients/${clientId}/commands`,
  );
  expect(status).toBe(200);
  return body.commands;
}

const PASTE_JACK = 'x\u0003    touch /tmp/pwned\nz';

describe('fields that reach a command', () => {
  it.each([
    ['tags', { tags: `eu, ${PASTE_JACK}` }, 'tags.1'],
    ['tags as a list', { tags: ['eu', 'a\u202eb'] }, 'tags.1'],
    ['username', { server: { host: 'h.example', username: 'de\u0015ploy' } }, 'server.username'],
    ['host', { server: { host: 'h.example\u200b' } }, 'server.host'],
    ['uiDir', { server: { host: 'h.example', uiDir: '/srv/\u001b[2Jui' } }, 'server.uiDir'],
    ['code', { code: 'AC\u0085M' }, 'code'],
  ])('refuses a hidden character in %s with a 400 naming the field', async (_what, body, field) => {
    const before = await t.server.app.parts.db.kysely.selectFrom('client').select('id').execute();
    const created = await t.staff.member.json<ApiError>('POST', '/api/clients', {
      name: 'Hostile',
      ...body,
    });
    expect(created.status).toBe(400);
    expect(created.body.fields?.[field]).toMatch(/control, bidi or zero-width/);
    const after = await t.server.app.parts.db.kysely.selectFrom('client').select('id').execute();
    expect(after).toHaveLength(before.length);
  });

  it('refuses the same in an update', async () => {
    const { body: client } = await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Clean',
    });
    const updated = await t.staff.member.json<ApiError>('PUT', `/api/clients/${client.id}`, {
      name: 'Clean',
      version: client.version,
      tags: PASTE_JACK,
    });
    expect(updated.status).toBe(400);
    expect(updated.body.fields?.['tags.0']).toMatch(/control, bidi or zero-width/);
  });

  it('refuses a hidden character in the access token', async () => {
    const saved = await t.staff.member.json<ApiError>('PUT', '/api/me/access-token', {
      accessToken: 'tok\u0003en',
    });
    expect(saved.status).toBe(400);
    expect(saved.body.fields?.accessToken).toMatch(/control, bidi or zero-width/);
  });

  it('refuses an access token too short for run logs to hide, and keeps the one stored', async () => {
    const member = t.staff.member;
    expect((await member.json('PUT', '/api/me/access-token', { accessToken: 'tok1' })).status).toBe(
      200,
    );
    const saved = await member.json<ApiError>('PUT', '/api/me/access-token', {
      accessToken: ' ab ',
    });
    expect(saved.status).toBe(400);
    expect(saved.body.fields).toEqual({ accessToken: SHORT_SECRET_MESSAGE });
    expect((await member.json<Me>('GET', '/api/me')).body.accessToken.isSet).toBe(true);
    // Empty still removes it.
    expect((await member.json('PUT', '/api/me/access-token', { accessToken: '' })).status).toBe(
      200,
    );
    expect((await member.json<Me>('GET', '/api/me')).body.accessToken.isSet).toBe(false);
  });
});

describe("values a program would take for an option (a leading '-')", () => {
  it.each([
    ['the first tag', { tags: '--token=attacker-token, eu' }, 'tags.0'],
    ['a tag as a list', { tags: ['eu', '-x'] }, 'tags.1'],
    [
      'uiDir',
      { server: { host: 'h.example', uiDir: '--use-compress-program=sh' } },
      'server.uiDir',
    ],
    ['uiDir of one dash', { server: { host: 'h.example', uiDir: '-' } }, 'server.uiDir'],
    ['code', { code: '-C' }, 'code'],
  ])('refuses %s with a 400 naming the field, and writes nothing', async (_what, body, field) => {
    const { kysely } = t.server.app.parts.db;
    const before = await kysely.selectFrom('client').select('id').execute();
    const created = await t.staff.member.json<ApiError>('POST', '/api/clients', {
      name: 'Optioned',
      ...body,
    });
    expect(created.status).toBe(400);
    expect(created.body.fields?.[field]).toBe("Must not start with '-'");
    expect(await kysely.selectFrom('client').select('id').execute()).toHaveLength(before.length);
  });

  it('refuses it in a bulk tag addition, and removes one stored before', async () => {
    const { body: client } = await t.staff.member.json<Client>('POST', '/api/clients', {
      name: 'Bulk',
      tags: 'eu',
    });
    const added = await t.staff.member.json<ApiError>('POST', '/api/clients/bulk/tags', {
      ids: [client.id],
      add: ['--token=attacker-token'],
    });
    expect(added.status).toBe(400);
    expect(added.body.fields?.['add.0']).toBe("Must not start with '-'");
    await t.server.app.parts.db.kysely
      .updateTable('client')
      .set({ tags: JSON.stringify(['--token=attacker-token', 'eu']) })
      .where('id', '=', client.id)
      .execute();
    const removed = await t.staff.member.json('POST', '/api/clients/bulk/tags', {
      ids: [client.id],
      remove: ['--token=attacker-token'],
    });
    expect(removed.status).toBe(200);
    const { body: after } = await t.staff.member.json<Client>('GET', `/api/clients/${client.id}`);
    expect(after.tags).toEqual(['eu']);
  });

  it('lists and reads a row stored with one, and withholds its command saying why', async () => {
    const client = await clientWithCommands('Old optioned row', 'eu');
    await t.server.app.parts.db.kysely
      .updateTable('client')
      .set({ tags: JSON.stringify(['--token=attacker-token']) })
      .where('id', '=', client.id)
      .execute();
    const read = await t.staff.member.json<Client>('GET', `/api/clients/${client.id}`);
    expect(read.status).toBe(200);
    expect(read.body.tags).toEqual(['--token=attacker-token']);
    for (const view of ['full', 'summary']) {
      expect((await t.staff.member.json('GET', `/api/clients?view=${view}`)).status).toBe(200);
    }
    const [deploy, ssh] = await commandsOf(client.id);
    expect(deploy).toMatchObject({ command: null, display: null });
    expect(deploy!.missing).toBe(
      "No deploy command: the first tag starts with '-', which the command would take for an option. Edit it to remove the '-'.",
    );
    expect(ssh!.command).toBe('ssh -p 22 deploy@web1.example.com');
  });
});

describe('a row stored with a hidden character before it was refused', () => {
  it('offers no command and says why, naming the character', async () => {
    const client = await clientWithCommands('Old row', 'eu-west-1');
    // As data written before this check, or straight into the database, would be.
    const { kysely } = t.server.app.parts.db;
    await kysely
      .updateTable('client')
      .set({ tags: JSON.stringify([PASTE_JACK]) })
      .where('id', '=', client.id)
      .execute();
    await kysely
      .updateTable('server')
      .set({ username: 'de\u0015ploy' })
      .where('clientId', '=', client.id)
      .execute();
    const [deploy, ssh] = await commandsOf(client.id);
    expect(deploy).toMatchObject({ command: null, display: null });
    expect(deploy!.missing).toContain('the first tag contains a hidden control character (U+0003)');
    expect(ssh).toMatchObject({ command: null, display: null });
    expect(ssh!.missing).toContain(
      'the server username contains a hidden control character (U+0015)',
    );
  });
});
