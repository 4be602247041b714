import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { Issue, IssueComment } from '#shared/issues.ts';
import { Session, signUpVerified, uniqueEmail } from '#server/testing/test-server.ts';
import { serveThisFile } from '#server/testing/file-server.ts';

/**
 * The audit trail names people by what they cannot change. A display name is anyone's to edit:
 * renamed to a colleague's name, a person could read a password and rename back, and history
 * would blame the colleague.
 */

const t = serveThisFile();

const rename = (session: Session, name: string) =>
  session.json('POST', '/api/auth/update-user', { name });

describe('who did it', () => {
  it('is recorded by email, whatever display name the person wore at the time', async () => {
    const aliceEmail = uniqueEmail('alice');
    const mallorysEmail = uniqueEmail('mallory');
    await signUpVerified(t.server, { name: 'Alice', email: aliceEmail });
    const mallory = await signUpVerified(t.server, { name: 'Mallory', email: mallorysEmail });

    expect((await rename(mallory, 'Alice')).status).toBe(200);
    const { body: client } = await mallory.json<Client>('POST', '/api/clients', {
      name: 'Target',
      server: { host: 'h.example', password: 'the password' },
    });
    expect((await mallory.json('GET', `/api/clients/${client.id}/password`)).status).toBe(200);
    expect((await rename(mallory, 'Mallory')).status).toBe(200);

    const { body: history } = await mallory.json<ClientHistory>(
      'GET',
      `/api/clients/${client.id}/history`,
    );
    expect(history.events.map((e) => [e.kind, e.actor.name])).toEqual([
      ['client.password_read', mallorysEmail],
      ['client.created', mallorysEmail],
    ]);
    const { body: read } = await mallory.json<Client>('GET', `/api/clients/${client.id}`);
    expect(read.createdBy).toBe(mallorysEmail);
    expect(read.updatedBy).toBe(mallorysEmail);
  });

  it('writes, comments and resolves issues by email, whatever display name is worn', async () => {
    const mallorysEmail = uniqueEmail('mallory');
    const mallory = await signUpVerified(t.server, { name: 'Mallory', email: mallorysEmail });
    const { body: client } = await mallory.json<Client>('POST', '/api/clients', { name: 'Co' });
    expect((await rename(mallory, 'Alice')).status).toBe(200);
    const { body: opened } = await mallory.json<Issue>('POST', '/api/issues', {
      clientId: client.id,
      title: 'Approved: deploy on Friday',
    });
    await mallory.json('POST', `/api/issues/${opened.id}/comments`, { text: 'Signed off.' });
    await mallory.json('POST', `/api/issues/${opened.id}/resolve`);

    // Read while the borrowed name is still worn: an issue must not name Alice.
    const { body: issue } = await mallory.json<Issue>('GET', `/api/issues/${opened.id}`);
    expect(issue.author.name).toBe(mallorysEmail);
    expect(issue.resolvedBy?.name).toBe(mallorysEmail);
    const { body: list } = await mallory.json<{ issues: Issue[] }>(
      'GET',
      `/api/issues?clientId=${client.id}&state=all`,
    );
    expect(list.issues.map((one) => one.author.name)).toEqual([mallorysEmail]);
    const { body: thread } = await mallory.json<{ comments: IssueComment[] }>(
      'GET',
      `/api/issues/${opened.id}/comments`,
    );
    expect(thread.comments.map((comment) => comment.author.name)).toEqual([mallorysEmail]);
  });
});

describe('a display name', () => {
  const long = 'N'.repeat(201);

  it('is refused over 200 characters at sign-up, naming the field', async () => {
    const response = await new Session(t.server).json<{ message?: string }>(
      'POST',
      '/api/auth/sign-up/email',
      { email: uniqueEmail(), password: 'correct horse battery', name: long },
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^name: Must be at most 200 characters/);
  });

  it('is refused over 200 characters when changed, naming the field', async () => {
    const staff = await signUpVerified(t.server, { name: 'Short' });
    const response = await staff.json<{ message?: string }>('POST', '/api/auth/update-user', {
      name: long,
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^name: Must be at most 200 characters/);
    expect((await rename(staff, 'N'.repeat(200))).status).toBe(200);
  });

  it('is refused with control, bidi or zero-width characters, at sign-up and when changed', async () => {
    const staff = await signUpVerified(t.server, { name: 'Plain' });
    // ESC erases the line and writes the clipboard of a terminal that lists people.
    for (const name of [
      'Eve\u001b[2K\r\u001b]52;c;Y3VybA==\u0007',
      'Ev\u202ee',
      'E\u200bve',
      'E\nve',
    ]) {
      const response = await staff.json<{ message?: string }>('POST', '/api/auth/update-user', {
        name,
      });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body.message).toMatch(/^name: Must not contain control, bidi or zero-width/);
    }
    const signUp = await new Session(t.server).json<{ message?: string }>(
      'POST',
      '/api/auth/sign-up/email',
      { email: uniqueEmail('eve'), password: 'correct horse battery', name: 'Eve\u001b[2K' },
    );
    expect(signUp.status).toBe(400);
    expect(signUp.body.message).toMatch(/^name: Must not contain control/);
    const me = await staff.json<{ displayName: string }>('GET', '/api/me');
    expect(me.body.displayName).toBe('Plain');
    expect((await rename(staff, 'Zoë Ødegaard 🙂')).status).toBe(200);
  });
});
