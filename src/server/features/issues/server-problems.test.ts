import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientEvent, ClientHistory } from '#shared/events.ts';
import type { Issue, IssueList } from '#shared/issues.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import type { WebhookCreated } from '#shared/webhooks.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { closedPort } from '#server/testing/free-port.ts';
import { startSshd, type Sshd } from '#server/testing/sshd.ts';
import { WebhookReceiver } from '#server/testing/webhook-receiver.ts';
import { resolveSecretKey, SecretBox } from '#server/secrets.ts';
import { ServerChecks } from '../servers/server-checks.ts';
import { SCHEDULED_CHECK_ACTOR } from '../servers/check-schedule.ts';
import { whoIs } from '#server/testing/access.ts';

/**
 * The problem issues the server checks open and resolve by themselves, against a real OpenSSH
 * server (sshd reads only its host key here: no credential) and a closed port. Retries wait
 * 10 ms here, not seconds.
 */
const t = serveThisFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
  start: {
    serverChecks: { timeoutMs: 5_000, retryDelayMs: 10 },
    webhooks: { retryDelayMs: 40, maxRetryDelayMs: 160, timeoutMs: 2_000, pollMs: 100 },
  },
  staff: {
    admin: { name: 'Ada Admin', role: 'admin' },
    editor: { name: 'Eddie Editor', role: 'editor' },
  },
});

let sshd: Sshd;
beforeAll(async () => {
  sshd = await startSshd([]);
});
afterAll(async () => sshd?.close());

/** A client whose form made its primary server; returns that server. */
async function serverFor(name: string, code: string, port: number): Promise<Server> {
  const client = await t.staff.editor.json<Client>('POST', '/api/clients', {
    name,
    code,
    server: { host: '127.0.0.1', port, username: sshd.username },
  });
  expect(client.status).toBe(201);
  const list = await t.staff.editor.json<ServerList>(
    'GET',
    `/api/servers?clientId=${client.body.id}`,
  );
  return list.body.servers[0]!;
}

async function check(server: Server): Promise<Server> {
  const answer = await t.staff.editor.json<Server>('POST', `/api/servers/${server.id}/check`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Points the server at another port, as an edit would but without raising its version. */
async function movePort(server: Server, port: number): Promise<void> {
  await t.server.app.parts.db.kysely
    .updateTable('server')
    .set({ port })
    .where('id', '=', server.id)
    .execute();
}

async function issuesOf(server: Server): Promise<Issue[]> {
  const answer = await t.staff.editor.json<IssueList>(
    'GET',
    `/api/issues?serverId=${server.id}&state=all`,
  );
  expect(answer.status).toBe(200);
  return answer.body.issues;
}

async function issueEvents(server: Server): Promise<ClientEvent[]> {
  const { body } = await t.staff.editor.json<ClientHistory>(
    'GET',
    `/api/clients/${server.client.id}/history`,
  );
  return body.events.filter((event) => event.issueId !== null).reverse();
}

describe('problem issues of server checks', () => {
  it('opens one issue while a server is unreachable and resolves it when it answers', async () => {
    const closed = await closedPort();
    const server = await serverFor('Acme Unreachable', 'ACMEU', closed);
    const down = await check(server);
    expect(down.status).toBe('unreachable');

    const [issue] = await issuesOf(server);
    expect(issue).toMatchObject({
      client: { id: server.client.id, name: 'Acme Unreachable', code: 'ACMEU' },
      server: { id: server.id, label: server.label },
      app: null,
      kind: 'problem',
      state: 'open',
      problem: 'server_unreachable',
      title: `Server "${server.label}" of Acme Unreachable (ACMEU) is unreachable`,
      author: { id: null, name: 'system' },
      assignee: null,
    });
    expect(issue!.text).toContain(`${sshd.username}@127.0.0.1:${closed}`);
    expect(issue!.text).toContain('connection refused');
    expect(issue!.text).toContain(down.checkedAt!);

    // Noticed again: the same issue, no second one, no event.
    await check(server);
    await check(server);
    expect((await issuesOf(server)).map((i) => i.id)).toEqual([issue!.id]);

    await movePort(server, sshd.port);
    expect((await check(server)).status).toBe('reachable');
    const [after] = await issuesOf(server);
    expect(after).toMatchObject({
      id: issue!.id,
      state: 'resolved',
      resolvedBy: { id: null, name: 'system' },
      version: 2,
    });
    expect(after!.resolvedAt).not.toBeNull();

    const events = await issueEvents(server);
    expect(
      events.map((e) => ({
        kind: e.kind,
        issueId: e.issueId,
        serverId: e.serverId,
        actor: e.actor,
        fields: e.fields,
      })),
    ).toEqual([
      {
        kind: 'issue.opened',
        issueId: issue!.id,
        serverId: server.id,
        actor: { id: null, name: 'system' },
        fields: ['problem'],
      },
      {
        kind: 'issue.resolved',
        issueId: issue!.id,
        serverId: server.id,
        actor: { id: null, name: 'system' },
        fields: ['state'],
      },
    ]);

    // Down again: a new issue, as the last one was resolved.
    await movePort(server, closed);
    await check(server);
    const issues = await issuesOf(server);
    expect(issues.map((i) => [i.state, i.problem])).toEqual([
      ['open', 'server_unreachable'],
      ['resolved', 'server_unreachable'],
    ]);
  });

  it('leaves a problem a person resolved while the server is down resolved until it changes', async () => {
    const closed = await closedPort();
    const server = await serverFor('Quiet Down', 'QUIETD', closed);
    await check(server);
    const [issue] = await issuesOf(server);
    const resolved = await t.staff.editor.json<Issue>('POST', `/api/issues/${issue!.id}/resolve`);
    expect(resolved.body).toMatchObject({
      state: 'resolved',
      resolvedBy: { name: (await whoIs(t.staff.editor)).email },
    });

    await check(server);
    expect((await issuesOf(server)).map((i) => [i.id, i.state])).toEqual([[issue!.id, 'resolved']]);

    // While the system has a newer issue open for the problem, the old one is not reopened.
    await movePort(server, sshd.port);
    await check(server);
    await movePort(server, closed);
    await check(server);
    const [newer, older] = await issuesOf(server);
    expect(older!.id).toBe(issue!.id);
    expect(newer!.state).toBe('open');
    const reopen = await t.staff.editor.json<{ error: string }>(
      'POST',
      `/api/issues/${issue!.id}/reopen`,
    );
    expect(reopen.status).toBe(409);
    expect(reopen.body.error).toContain(newer!.id);
    // Once that one is resolved, the old one may be reopened.
    await t.staff.editor.json('POST', `/api/issues/${newer!.id}/resolve`);
    const again = await t.staff.editor.json<Issue>('POST', `/api/issues/${issue!.id}/reopen`);
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('open');
  });

  it('works the same for scheduled checks, which leave events only for changes', async () => {
    const { db } = t.server.app.parts;
    const { config } = t.server;
    const box = new SecretBox(resolveSecretKey(config.secretKey, config.dataDir));
    const woken: number[] = [];
    const checks = new ServerChecks(db, box, () => woken.push(1), {
      timeoutMs: 5_000,
      retryDelayMs: 10,
    });
    const scheduled = (id: string) =>
      checks.check(id, SCHEDULED_CHECK_ACTOR, { eventOnlyOnChange: true });

    const closed = await closedPort();
    const server = await serverFor('Scheduled Down', 'SCHEDD', closed);
    expect(await scheduled(server.id)).toBe('checked');
    expect(await scheduled(server.id)).toBe('checked');
    const [issue] = await issuesOf(server);
    expect(issue).toMatchObject({ state: 'open', problem: 'server_unreachable' });
    expect(await issuesOf(server)).toHaveLength(1);
    expect(woken).toHaveLength(1);

    await movePort(server, sshd.port);
    await scheduled(server.id);
    expect((await issuesOf(server)).map((i) => i.state)).toEqual(['resolved']);
    expect(woken).toHaveLength(2);
    const { body } = await t.staff.editor.json<ClientHistory>(
      'GET',
      `/api/clients/${server.client.id}/history`,
    );
    expect(
      body.events
        .filter((e) => e.kind !== 'client.created')
        .reverse()
        .map((e) => [e.kind, e.actor.name]),
    ).toEqual([
      ['server.checked', 'Scheduled check'],
      ['issue.opened', 'system'],
      ['server.checked', 'Scheduled check'],
      ['issue.resolved', 'system'],
    ]);
  });

  it('opens a host-key issue naming both keys, and resolves it once the new key is accepted', async () => {
    const server = await serverFor('Key Change', 'KEYCH', sshd.port);
    const closed = await closedPort();
    const original = await sshd.hostKey();
    expect((await check(server)).hostKey).toEqual(original);
    // Down first: the changed key then shows the server answers, which resolves 'unreachable'.
    await movePort(server, closed);
    await check(server);
    await movePort(server, sshd.port);

    await sshd.changeHostKey();
    const changed = await sshd.hostKey();
    expect((await check(server)).status).toBe('host_key_changed');
    const issues = await issuesOf(server);
    expect(issues.map((i) => [i.problem, i.state])).toEqual([
      ['host_key_changed', 'open'],
      ['server_unreachable', 'resolved'],
    ]);
    const issue = issues[0]!;
    expect(issue.title).toBe(
      `Server "${server.label}" of Key Change (KEYCH) offers a different host key`,
    );
    expect(issue.text).toContain(changed.fingerprint);
    expect(issue.text).toContain(original.fingerprint);
    expect(issue.text).toContain('Servers section');
    expect(issue.text).toContain("'Accept new key'");
    await check(server);
    expect(await issuesOf(server)).toHaveLength(2);

    const accepted = await t.staff.editor.json<Server>(
      'POST',
      `/api/servers/${server.id}/host-key`,
      { fingerprint: changed.fingerprint },
    );
    expect(accepted.status).toBe(200);
    expect((await check(server)).status).toBe('reachable');
    expect((await issuesOf(server)).map((i) => [i.problem, i.state])).toEqual([
      ['host_key_changed', 'resolved'],
      ['server_unreachable', 'resolved'],
    ]);
  });

  it('is named by its title in a webhook’s message', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const made = await t.staff.admin.json<WebhookCreated>('POST', '/api/webhooks', {
        url: receiver.url(),
        events: ['issue.opened'],
        format: 'slack',
      });
      expect(made.status).toBe(201);
      const server = await serverFor('Hooked Ltd', 'HOOK', await closedPort());
      await check(server);
      await receiver.waitFor(1);
      const [body] = receiver.bodies<{ text: string }>();
      expect(body!.text).toBe(
        `system opened issue "Server "${server.label}" of Hooked Ltd (HOOK) is unreachable" of Hooked Ltd (HOOK): problem`,
      );
      await t.staff.admin.json('DELETE', `/api/webhooks/${made.body.webhook.id}`);
    } finally {
      await receiver.close();
    }
  });
});
