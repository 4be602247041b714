import { describe, expect, it } from 'vitest';
import type { Me } from '#shared/account.ts';
import type { PeopleList } from '#shared/people-admin.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

// Its own installation: the one administrator here is the only one.
const t = serveThisFile({
  staff: {
    admin: { name: 'Only Admin', role: 'admin' },
    other: { name: 'Other', role: 'editor' },
  },
});

describe('the last administrator', () => {
  it('cannot be demoted or disabled until someone else is an administrator', async () => {
    const admin = (await t.staff.admin.json<Me>('GET', '/api/me')).body;
    const other = (await t.staff.other.json<Me>('GET', '/api/me')).body;
    const message = `${admin.email} is the last administrator: make someone else an administrator first`;

    const demoted = await t.staff.admin.json<{ error: string; fields: Record<string, string> }>(
      'PATCH',
      `/api/people/${admin.id}`,
      { role: 'editor' },
    );
    expect(demoted.status).toBe(409);
    expect(demoted.body.error).toBe(message);
    expect(demoted.body.fields.role).toBe(message);
    const disabled = await t.staff.admin.json<{ error: string }>(
      'PATCH',
      `/api/people/${admin.id}`,
      { disabled: true },
    );
    expect(disabled.status).toBe(409);
    expect(disabled.body.error).toBe(message);
    const list = await t.staff.admin.json<PeopleList>('GET', '/api/people');
    expect(list.body.people.find((p) => p.id === admin.id)).toMatchObject({
      role: 'admin',
      disabled: false,
    });

    // A disabled administrator does not count: they cannot manage anyone.
    expect(
      (await t.staff.admin.json('PATCH', `/api/people/${other.id}`, { role: 'admin' })).status,
    ).toBe(200);
    expect(
      (await t.staff.admin.json('PATCH', `/api/people/${other.id}`, { disabled: true })).status,
    ).toBe(200);
    expect(
      (await t.staff.admin.json('PATCH', `/api/people/${admin.id}`, { role: 'viewer' })).status,
    ).toBe(409);

    expect(
      (await t.staff.admin.json('PATCH', `/api/people/${other.id}`, { disabled: false })).status,
    ).toBe(200);
    const stepDown = await t.staff.admin.json('PATCH', `/api/people/${admin.id}`, {
      role: 'editor',
    });
    expect(stepDown.status).toBe(200);
    // Now an editor: the People routes refuse them on their next request.
    expect((await t.staff.admin.json('GET', '/api/people')).status).toBe(403);
  });
});
