import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientExport, ImportReport } from '#shared/client-transfer.ts';
import type { ClientEvent, ClientHistory } from '#shared/events.ts';
import type { Issue, IssueComment, IssueList } from '#shared/issues.ts';
import type { Server } from '#shared/servers.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { openEventStream, type SseReader } from '#server/testing/sse-reader.ts';
import { whoIs } from '#server/testing/access.ts';
import { fromBool } from '#server/db/codec.ts';
import { newRecordId } from '#server/db/record-id.ts';
import { STALE_VERSION_CODE } from '#shared/api-error.ts';
import { openProblem, runProblemKey, serverProblemKey } from './problem-issues.ts';

/**
 * The issue routes as staff use them: open, edit, resolve, reopen and comment, the list's
 * filters and pages, refusals naming their field, roles, access by tag, the events on the live
 * stream and in the client's history.
 */
const t = serveThisFile({
  staff: {
    admin: { name: 'Ada Admin', role: 'admin' },
    editor: { name: 'Eddie Editor', role: 'editor' },
    limited: { name: 'Lena Limited', role: 'editor', tags: ['eu'] },
    viewer: { name: 'Vic Viewer', role: 'viewer' },
  },
});

type Answer<T> = {
  status: number;
  body: T & { error?: string; fields?: Record<string, string>; code?: string };
};

async function idOf(session: Session): Promise<string> {
  return (await whoIs(session)).id;
}

async function newClient(name: string, tags: string[] = [], code?: string): Promise<Client> {
  const made = await t.staff.editor.json<Client>('POST', '/api/clients', {
    name,
    tags,
    ...(code === undefined ? {} : { code }),
  });
  expect(made.status).toBe(201);
  return made.body;
}

async function newServer(clientId: string, label: string): Promise<Server> {
  const made = await t.staff.editor.json<Server>('POST', '/api/servers', {
    clientId,
    label,
    host: `${label}.example.test`,
  });
  expect(made.status).toBe(201);
  return made.body;
}

/** An app row as the apps routes (another feature) would leave it. */
async function newApp(clientId: string, name: string): Promise<string> {
  const id = newRecordId();
  const at = new Date().toISOString();
  await t.server.app.parts.db.kysely
    .insertInto('app')
    .values({
      id,
      clientId,
      serverId: null,
      name,
      directory: '',
      domains: '[]',
      command: null,
      createdAt: at,
      createdBy: null,
      updatedAt: at,
      updatedBy: null,
      version: 1,
    })
    .execute();
  return id;
}

/** Opens a system problem issue as a check or a run would, and returns its id. */
async function openProblemOf(
  clientId: string,
  key: string,
  about: { serverId: string } | { appId: string },
): Promise<string> {
  const { db } = t.server.app.parts;
  const id = await db.kysely.transaction().execute((trx) =>
    openProblem(trx, db.dialect, {
      key,
      clientId,
      ...about,
      title: 'Down',
      text: 'This issue is resolved by itself when a check reaches the server again.',
      at: new Date().toISOString(),
    }),
  );
  return id!;
}

function open(session: Session, body: Record<string, unknown>): Promise<Answer<Issue>> {
  return session.json<Issue>('POST', '/api/issues', body);
}

async function opened(body: Record<string, unknown>, session = t.staff.editor): Promise<Issue> {
  const made = await open(session, body);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
}

async function list(query: string, session = t.staff.editor): Promise<IssueList> {
  const answer = await session.json<IssueList>('GET', `/api/issues${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function issueEvents(clientId: string, session = t.staff.editor): Promise<ClientEvent[]> {
  const { body } = await session.json<ClientHistory>('GET', `/api/clients/${clientId}/history`);
  return body.events.filter((event) => event.issueId !== null).reverse();
}

function update(
  issue: Issue,
  changes: Record<string, unknown>,
  session = t.staff.editor,
): Promise<Answer<Issue>> {
  return session.json<Issue & { error?: string; fields?: Record<string, string> }>(
    'PUT',
    `/api/issues/${issue.id}`,
    {
      serverId: issue.server?.id ?? null,
      appId: issue.app?.id ?? null,
      kind: issue.kind,
      title: issue.title,
      text: issue.text,
      assigneeId: issue.assignee?.id ?? null,
      version: issue.version,
      ...changes,
    },
  );
}

describe('an issue', () => {
  it('is opened, edited, commented, resolved and reopened, each with its event', async () => {
    const client = await newClient('Issue Works', []);
    const server = await newServer(client.id, 'production');
    const appId = await newApp(client.id, 'storefront');
    const { id: editorId, email: editorEmail } = await whoIs(t.staff.editor);
    const { id: adminId, email: adminEmail } = await whoIs(t.staff.admin);

    const made = await opened({
      clientId: client.id,
      serverId: server.id,
      appId,
      title: '  Disk nearly full  ',
      text: 'The data volume is at 91%.',
      assigneeId: adminId,
    });
    expect(made).toMatchObject({
      client: { id: client.id, name: 'Issue Works', code: client.code },
      server: { id: server.id, label: 'production' },
      app: { id: appId, name: 'storefront' },
      kind: 'note',
      state: 'open',
      title: 'Disk nearly full',
      text: 'The data volume is at 91%.',
      author: { id: editorId, name: editorEmail },
      assignee: { id: adminId, name: 'Ada Admin' },
      problem: null,
      commentCount: 0,
      resolvedAt: null,
      resolvedBy: null,
      version: 1,
    });
    expect(made.createdAt).toBe(made.updatedAt);
    expect((await t.staff.viewer.json<Issue>('GET', `/api/issues/${made.id}`)).body).toEqual(made);

    const edited = await update(made, { kind: 'problem', title: 'Disk full', assigneeId: null });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ kind: 'problem', title: 'Disk full', version: 2 });
    expect(edited.body.assignee).toBeNull();
    // The same values again change nothing: no version, no event.
    const same = await update(edited.body, {});
    expect(same.body.version).toBe(2);
    // A save from the form read at version 1 is refused, naming who changed it.
    const stale = await update(made, { title: 'Late edit' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain('Your changes were not saved');
    expect(stale.body.code).toBe(STALE_VERSION_CODE);
    expect(stale.body.error).toContain(editorEmail);

    const comment = await t.staff.admin.json<IssueComment>(
      'POST',
      `/api/issues/${made.id}/comments`,
      { text: '  Cleared the old logs.  ' },
    );
    expect(comment.status).toBe(201);
    expect(comment.body).toMatchObject({
      issueId: made.id,
      author: { id: adminId, name: adminEmail },
      text: 'Cleared the old logs.',
    });
    const comments = await t.staff.viewer.json<{ comments: IssueComment[] }>(
      'GET',
      `/api/issues/${made.id}/comments`,
    );
    expect(comments.body.comments).toEqual([comment.body]);
    const commented = (await t.staff.editor.json<Issue>('GET', `/api/issues/${made.id}`)).body;
    // A comment is no edit: the version stays, so an edit in progress still saves.
    expect(commented).toMatchObject({ commentCount: 1, version: 2 });

    const resolved = await t.staff.admin.json<Issue>('POST', `/api/issues/${made.id}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      state: 'resolved',
      resolvedBy: { id: adminId, name: adminEmail },
      version: 3,
    });
    expect(resolved.body.resolvedAt).not.toBeNull();
    const again = await t.staff.editor.json<Issue>('POST', `/api/issues/${made.id}/resolve`);
    expect(again.body).toEqual(resolved.body);

    const reopened = await t.staff.editor.json<Issue>('POST', `/api/issues/${made.id}/reopen`);
    expect(reopened.body).toMatchObject({
      state: 'open',
      resolvedAt: null,
      resolvedBy: null,
      version: 4,
    });
    const reopenedAgain = await t.staff.editor.json<Issue>('POST', `/api/issues/${made.id}/reopen`);
    expect(reopenedAgain.body).toEqual(reopened.body);

    const events = await issueEvents(client.id);
    expect(
      events.map(({ kind, fields, issueId, serverId, appId: app }) => ({
        kind,
        fields,
        issueId,
        serverId,
        appId: app,
      })),
    ).toEqual(
      [
        ['issue.opened', ['title', 'text', 'kind', 'serverId', 'appId', 'assigneeId']],
        ['issue.updated', ['title', 'kind', 'assigneeId']],
        ['issue.commented', ['comment']],
        ['issue.resolved', ['state']],
        ['issue.reopened', ['state']],
      ].map(([kind, fields]) => ({ kind, fields, issueId: made.id, serverId: server.id, appId })),
    );
    expect(events.map((e) => e.actor.name)).toContain(
      (await t.staff.admin.json<{ email: string }>('GET', '/api/me')).body.email,
    );
    // Events name fields, never values.
    const history = JSON.stringify(events);
    for (const value of ['Disk', '91%', 'Cleared the old logs']) {
      expect(history).not.toContain(value);
    }
  });

  it('names the field at fault when it cannot be opened or edited as asked', async () => {
    const client = await newClient('Refusals Ltd');
    const other = await newClient('Elsewhere Ltd');
    const otherServer = await newServer(other.id, 'theirs');
    const otherApp = await newApp(other.id, 'their-app');
    const leaver = await signUpVerified(t.server, { name: 'Lee Leaver' });
    const leaverId = await idOf(leaver);
    const { kysely } = t.server.app.parts.db;
    const dialect = t.server.app.parts.db.dialect;
    await kysely
      .updateTable('user')
      .set({ disabled: fromBool(true, dialect) })
      .where('id', '=', leaverId)
      .execute();

    const cases: [Record<string, unknown>, string][] = [
      [{ clientId: client.id, title: 'x', serverId: otherServer.id }, 'serverId'],
      [{ clientId: client.id, title: 'x', appId: otherApp }, 'appId'],
      [{ clientId: client.id, title: 'x', assigneeId: leaverId }, 'assigneeId'],
      [{ clientId: client.id, title: 'x', assigneeId: 'noSuchPerson01' }, 'assigneeId'],
      // Limited to 'eu', and this client has no tag: they could not even open the issue.
      [{ clientId: client.id, title: 'x', assigneeId: await idOf(t.staff.limited) }, 'assigneeId'],
      [{ clientId: 'noSuchClient01', title: 'x' }, 'clientId'],
      [{ clientId: client.id, title: '   ' }, 'title'],
      // Shown on one line in lists, history and chat messages: no forged second line.
      [{ clientId: client.id, title: 'Disk full\nadmin deleted client Acme' }, 'title'],
      [{ clientId: client.id, title: 'Disk full\u001b[2J\u202e' }, 'title'],
      [{ clientId: client.id, title: 'x', kind: 'rant' }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const answer = await open(t.staff.editor, body);
      expect({ field, status: answer.status }).toEqual({ field, status: 400 });
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(answer.body)).toEqual([field]);
      expect(answer.body.error).toContain(field);
    }

    const issue = await opened({ clientId: client.id, title: 'Fine' });
    const bad = await update(issue, { serverId: otherServer.id });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ serverId: 'This client has no server with that id' });
    const disabled = await update(issue, { assigneeId: leaverId });
    expect(disabled.body.fields).toEqual({ assigneeId: 'No active person with that id' });
    const forged = await update(issue, { title: 'Fine\u2028admin resolved issue "Fine"' });
    expect(forged.status).toBe(400);
    expect(forged.body.fields?.title).toMatch(/control, bidi or zero-width/);
    const noVersion = await update(issue, { version: undefined });
    expect(Object.keys(noVersion.body.fields ?? {})).toEqual(['version']);
    expect((await t.staff.editor.json('GET', '/api/issues/noSuchIssue01')).status).toBe(404);
    expect((await update({ ...issue, id: 'noSuchIssue01' }, {})).status).toBe(404);
    expect((await t.staff.editor.json('GET', `/api/issues/${issue.id}`)).body).toEqual(issue);

    // Given to a person before their account was disabled: still editable, and listed as theirs.
    await kysely
      .updateTable('issue')
      .set({ assigneeId: leaverId })
      .where('id', '=', issue.id)
      .execute();
    const kept = await update(issue, { title: 'Fine still', assigneeId: leaverId });
    expect(kept.status).toBe(200);
    expect(kept.body.assignee).toEqual({ id: leaverId, name: 'Lee Leaver' });

    const assignees = await t.staff.viewer.json<{ people: { id: string; email: string }[] }>(
      'GET',
      '/api/issues/assignees',
    );
    expect(assignees.status).toBe(200);
    const ids = assignees.body.people.map((p) => p.id);
    expect(ids).toContain(await idOf(t.staff.editor));
    expect(ids).toContain(await idOf(t.staff.viewer));
    expect(ids).not.toContain(leaverId);
    expect(ids).toContain(await idOf(t.staff.limited));

    // For one client: only those whose tags reach it, as the form offers them.
    const limitedId = await idOf(t.staff.limited);
    const euClient = await newClient('Assignable GmbH', ['eu']);
    for (const [clientId, offered] of [
      [client.id, false],
      [euClient.id, true],
    ] as const) {
      const forClient = await t.staff.editor.json<{ people: { id: string }[] }>(
        'GET',
        `/api/issues/assignees?clientId=${clientId}`,
      );
      const people = forClient.body.people.map((p) => p.id);
      expect(people).toContain(await idOf(t.staff.editor));
      expect(people.includes(limitedId), clientId).toBe(offered);
    }
    // Asking about a client out of one's own reach is refused like one that does not exist.
    const outOfReach = await t.staff.limited.json<{ fields?: Record<string, string> }>(
      'GET',
      `/api/issues/assignees?clientId=${client.id}`,
    );
    expect(outOfReach.status).toBe(400);
    expect(Object.keys(outOfReach.body.fields ?? {})).toEqual(['clientId']);
  });
});

describe('the issue list', () => {
  it('filters by client, server, app, state, kind, assignee and words, newest first', async () => {
    const acme = await newClient('Listing Acme', [], 'ZQXACME');
    const globex = await newClient('Listing Globex');
    const server = await newServer(acme.id, 'web');
    const appId = await newApp(acme.id, 'shop');
    const editorId = await idOf(t.staff.editor);
    const a = await opened({ clientId: acme.id, title: 'Backup failed', serverId: server.id });
    const b = await opened({
      clientId: acme.id,
      title: 'Renew certificate',
      text: 'The TLS certificate EXPIRES Friday',
      appId,
      kind: 'problem',
      assigneeId: editorId,
    });
    const c = await opened({ clientId: globex.id, title: 'Call about invoice' }, t.staff.admin);
    const d = await opened({ clientId: globex.id, title: 'Old note' });
    await t.staff.editor.json('POST', `/api/issues/${d.id}/resolve`);
    const ours = (issues: Issue[]) =>
      issues.map((i) => i.id).filter((id) => [a.id, b.id, c.id, d.id].includes(id));

    // Open ones by default, newest first.
    expect(ours((await list('')).issues)).toEqual([c.id, b.id, a.id]);
    expect(ours((await list('?state=all')).issues)).toEqual([d.id, c.id, b.id, a.id]);
    expect(ours((await list('?state=resolved')).issues)).toEqual([d.id]);
    expect((await list(`?clientId=${acme.id}`)).issues.map((i) => i.id)).toEqual([b.id, a.id]);
    expect((await list(`?serverId=${server.id}`)).issues.map((i) => i.id)).toEqual([a.id]);
    expect((await list(`?appId=${appId}`)).issues.map((i) => i.id)).toEqual([b.id]);
    expect(ours((await list('?kind=problem')).issues)).toEqual([b.id]);
    expect(ours((await list('?kind=note&state=all')).issues)).toEqual([d.id, c.id, a.id]);
    expect(ours((await list('?assigneeId=me')).issues)).toEqual([b.id]);
    expect(ours((await list('?assigneeId=me', t.staff.admin)).issues)).toEqual([]);
    expect(ours((await list(`?assigneeId=${editorId}`, t.staff.admin)).issues)).toEqual([b.id]);
    // Words in the title, the text, the client's name or code, ignoring case.
    expect(ours((await list('?q=expires')).issues)).toEqual([b.id]);
    expect(ours((await list('?q=BACKUP')).issues)).toEqual([a.id]);
    expect(ours((await list('?q=listing%20globex&state=all')).issues)).toEqual([d.id, c.id]);
    expect(ours((await list('?q=zqxacme')).issues)).toEqual([b.id, a.id]);
    expect(ours((await list('?q=nothing-like-this')).issues)).toEqual([]);

    const refused = await t.staff.editor.json<{ fields: Record<string, string> }>(
      'GET',
      '/api/issues?state=closed&kind=rant',
    );
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fields).sort()).toEqual(['kind', 'state']);
  });

  it('pages on request, in the order of the issues’ ids', async () => {
    const client = await newClient('Paging Ltd');
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push((await opened({ clientId: client.id, title: `Page ${i}` })).id);
    }
    const whole = await list(`?clientId=${client.id}`);
    expect(whole.nextCursor).toBeUndefined();
    expect(whole.issues.map((i) => i.id)).toEqual([...made].reverse());

    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const query = `?clientId=${client.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await list(query);
      expect(page.issues.length).toBeLessThanOrEqual(2);
      seen.push(...page.issues.map((i) => i.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].sort());
    const bad = await t.staff.editor.json('GET', '/api/issues?cursor=notOurs');
    expect(bad.status).toBe(400);
  });
});

describe('who may do what', () => {
  it('lets a viewer read, and refuses every write with 403', async () => {
    const client = await newClient('Viewer Ltd');
    const issue = await opened({ clientId: client.id, title: 'Read only' });
    expect((await t.staff.viewer.json('GET', `/api/issues/${issue.id}`)).status).toBe(200);
    expect((await t.staff.viewer.json('GET', `/api/issues/${issue.id}/comments`)).status).toBe(200);
    expect(ours(await list('', t.staff.viewer), issue.id)).toBe(true);
    const writes: [string, string, unknown?][] = [
      ['POST', '/api/issues', { clientId: client.id, title: 'Mine' }],
      ['PUT', `/api/issues/${issue.id}`, { ...editable(issue), title: 'Changed' }],
      ['POST', `/api/issues/${issue.id}/resolve`],
      ['POST', `/api/issues/${issue.id}/reopen`],
      ['POST', `/api/issues/${issue.id}/comments`, { text: 'Hello' }],
    ];
    for (const [method, url, body] of writes) {
      const answer = await t.staff.viewer.json(method, url, body);
      expect({ method, url, status: answer.status }).toEqual({ method, url, status: 403 });
    }
    expect((await t.staff.editor.json<Issue>('GET', `/api/issues/${issue.id}`)).body).toEqual(
      issue,
    );
  });

  it('keeps the issues of clients outside a person’s tags out of sight, as missing ones', async () => {
    const eu = await newClient('Tagged Lisbon', ['eu']);
    const us = await newClient('Tagged Denver', ['us']);
    const euIssue = await opened({ clientId: eu.id, title: 'Lisbon issue' });
    const usIssue = await opened({ clientId: us.id, title: 'Denver issue' });

    const seen = (await list('?state=all', t.staff.limited)).issues.map((i) => i.client.id);
    expect(seen).toContain(eu.id);
    expect(seen).not.toContain(us.id);
    expect((await list(`?clientId=${us.id}`, t.staff.limited)).issues).toEqual([]);
    expect((await list(`?q=denver`, t.staff.limited)).issues).toEqual([]);

    const id = usIssue.id;
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/issues/${id}`],
      ['PUT', `/api/issues/${id}`, editable(usIssue)],
      ['POST', `/api/issues/${id}/resolve`],
      ['POST', `/api/issues/${id}/reopen`],
      ['GET', `/api/issues/${id}/comments`],
      ['POST', `/api/issues/${id}/comments`, { text: 'Hello' }],
    ];
    for (const [method, url, body] of routes) {
      const hidden = await t.staff.limited.json(method, url, body);
      const missing = await t.staff.limited.json(method, url.replace(id, 'noSuchIssue01'), body);
      expect({ method, url, status: hidden.status }).toEqual({ method, url, status: 404 });
      expect(hidden.body).toEqual(missing.body);
    }
    const hidden = await open(t.staff.limited, { clientId: us.id, title: 'Sneaky' });
    const none = await open(t.staff.limited, { clientId: 'noSuchClient01', title: 'Sneaky' });
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(none.body);
    expect((await t.staff.editor.json<Issue>('GET', `/api/issues/${id}`)).body).toEqual(usIssue);

    expect((await open(t.staff.limited, { clientId: eu.id, title: 'Mine' })).status).toBe(201);
    const resolved = await t.staff.limited.json<Issue>('POST', `/api/issues/${euIssue.id}/resolve`);
    expect(resolved.body.state).toBe('resolved');
  });
});

function editable(issue: Issue) {
  return {
    serverId: issue.server?.id ?? null,
    appId: issue.app?.id ?? null,
    kind: issue.kind,
    title: issue.title,
    text: issue.text,
    assigneeId: issue.assignee?.id ?? null,
    version: issue.version,
  };
}

function ours(page: IssueList, id: string): boolean {
  return page.issues.some((issue) => issue.id === id);
}

describe('issue events on the live stream', () => {
  async function stream(session: Session): Promise<SseReader> {
    const reader = await openEventStream(t.server.url, session.cookieHeader);
    await reader.until('stream.ready');
    return reader;
  }

  it('reach the people who may see the client, and name the issue, never its text', async () => {
    const eu = await newClient('Stream Vienna', ['eu']);
    const us = await newClient('Stream Houston', ['us']);
    const limited = await stream(t.staff.limited);
    const everyone = await stream(t.staff.viewer);
    try {
      const usIssue = await opened({ clientId: us.id, title: 'Houston secret plans' });
      await t.staff.editor.json('POST', `/api/issues/${usIssue.id}/comments`, { text: 'psst' });
      const euIssue = await opened({ clientId: eu.id, title: 'Vienna note', text: 'Quiet text' });
      await t.staff.editor.json('POST', `/api/issues/${euIssue.id}/comments`, { text: 'hush' });

      const seen = await everyone.until('issue.commented');
      expect(seen.map((m) => [m.event, (JSON.parse(m.data) as ClientEvent).issueId])).toEqual([
        ['issue.opened', usIssue.id],
        ['issue.commented', usIssue.id],
      ]);
      const more = await everyone.until('issue.commented');
      expect(more.map((m) => m.event)).toEqual(['issue.opened', 'issue.commented']);

      const theirs = await limited.until('issue.commented');
      expect(
        theirs.map((m) => {
          const event = JSON.parse(m.data) as ClientEvent;
          return [m.event, event.issueId, event.clientId, event.fields];
        }),
      ).toEqual([
        ['issue.opened', euIssue.id, eu.id, ['title', 'text', 'kind']],
        ['issue.commented', euIssue.id, eu.id, ['comment']],
      ]);
      expect(limited.raw).not.toContain(usIssue.id);
      for (const text of ['Houston', 'psst', 'Vienna note', 'Quiet text', 'hush']) {
        expect(everyone.raw).not.toContain(text);
        expect(limited.raw).not.toContain(text);
      }
    } finally {
      limited.close();
      everyone.close();
    }
  });
});

describe('when what an issue names goes', () => {
  it('resolves, as the system, the problem issues of a server or app that is removed', async () => {
    const client = await newClient('Going Away');
    const server = await newServer(client.id, 'doomed');
    const appId = await newApp(client.id, 'doomed-app');
    const problems = [
      await openProblemOf(client.id, serverProblemKey(server.id, 'server_unreachable'), {
        serverId: server.id,
      }),
      await openProblemOf(client.id, serverProblemKey(server.id, 'host_key_changed'), {
        serverId: server.id,
      }),
      await openProblemOf(client.id, runProblemKey(appId), { appId }),
    ];
    expect((await t.staff.editor.request('DELETE', `/api/servers/${server.id}`)).status).toBe(204);
    expect((await t.staff.editor.request('DELETE', `/api/apps/${appId}`)).status).toBe(204);
    for (const id of problems) {
      const issue = (await t.staff.editor.json<Issue>('GET', `/api/issues/${id}`)).body;
      expect(issue, id).toMatchObject({
        state: 'resolved',
        resolvedBy: { name: 'system' },
        server: null,
        app: null,
      });
    }
    const resolved = (await issueEvents(client.id)).filter((e) => e.kind === 'issue.resolved');
    expect(resolved.map((e) => [e.issueId, e.actor.name]).sort()).toEqual(
      problems.map((id) => [id, 'system']).sort(),
    );
  });

  it('resolves the problem issues of a server that an import of version 2 drops', async () => {
    const client = await newClient('Imported Away');
    const doomed = await newServer(client.id, 'doomed');
    const kept = await newServer(client.id, 'kept');
    const appId = await newApp(client.id, 'doomed-app');
    const { db } = t.server.app.parts;
    await db.kysely
      .updateTable('app')
      .set({ serverId: doomed.id })
      .where('id', '=', appId)
      .execute();
    const dropped = [
      await openProblemOf(client.id, serverProblemKey(doomed.id, 'server_unreachable'), {
        serverId: doomed.id,
      }),
      await openProblemOf(client.id, serverProblemKey(doomed.id, 'host_key_changed'), {
        serverId: doomed.id,
      }),
    ];
    const stillKept = await openProblemOf(
      client.id,
      serverProblemKey(kept.id, 'server_unreachable'),
      {
        serverId: kept.id,
      },
    );
    // The app stays (without a server): its next run, once given one, resolves this itself.
    const appProblem = await openProblemOf(client.id, runProblemKey(appId), { appId });

    const exported = await t.staff.editor.request('GET', '/api/clients/export');
    expect(exported.status).toBe(200);
    const file = (await exported.json()) as ClientExport;
    const document = file.clients.find((c) => c.id === client.id)!;
    expect(document.servers.map((s) => s.label)).toContain('doomed');
    const edited: ClientExport = {
      ...file,
      clients: [{ ...document, servers: document.servers.filter((s) => s.label !== 'doomed') }],
    };
    const imported = await t.staff.editor.json<ImportReport>('POST', '/api/clients/import', edited);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ updated: 1 });
    expect((await t.staff.editor.json('GET', `/api/servers/${doomed.id}`)).status).toBe(404);

    for (const id of dropped) {
      const issue = (await t.staff.editor.json<Issue>('GET', `/api/issues/${id}`)).body;
      expect(issue, id).toMatchObject({
        state: 'resolved',
        resolvedBy: { name: 'system' },
        server: null,
      });
    }
    for (const id of [stillKept, appProblem]) {
      const issue = (await t.staff.editor.json<Issue>('GET', `/api/issues/${id}`)).body;
      expect(issue, id).toMatchObject({ state: 'open' });
    }
    const resolved = (await issueEvents(client.id)).filter((e) => e.kind === 'issue.resolved');
    expect(resolved.map((e) => [e.issueId, e.actor.name]).sort()).toEqual(
      dropped.map((id) => [id, 'system']).sort(),
    );
  });

  it('keeps the issue without its server or app, and removes it with its client', async () => {
    const client = await newClient('Going Ltd');
    const server = await newServer(client.id, 'doomed');
    await newServer(client.id, 'spare');
    const appId = await newApp(client.id, 'doomed-app');
    const issue = await opened({ clientId: client.id, serverId: server.id, appId, title: 'Stays' });
    const comment = await t.staff.editor.json('POST', `/api/issues/${issue.id}/comments`, {
      text: 'A comment',
    });
    expect(comment.status).toBe(201);

    // The primary server (the client's first) is removed with 'make another primary' first.
    const spare = (
      await t.staff.editor.json<{ servers: Server[] }>('GET', `/api/servers?clientId=${client.id}`)
    ).body.servers.find((s) => s.label === 'spare')!;
    await t.staff.editor.json('POST', `/api/servers/${spare.id}/primary`);
    const removed = await t.staff.editor.request('DELETE', `/api/servers/${server.id}`);
    expect(removed.status).toBe(204);
    await t.server.app.parts.db.kysely.deleteFrom('app').where('id', '=', appId).execute();
    const kept = (await t.staff.editor.json<Issue>('GET', `/api/issues/${issue.id}`)).body;
    expect(kept).toMatchObject({ id: issue.id, server: null, app: null, commentCount: 1 });
    expect((await update(kept, { title: 'Stays, renamed' })).status).toBe(200);

    expect((await t.staff.editor.request('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
    expect((await t.staff.editor.json('GET', `/api/issues/${issue.id}`)).status).toBe(404);
    const { kysely } = t.server.app.parts.db;
    const left = await kysely
      .selectFrom('issueComment')
      .select('id')
      .where('issueId', '=', issue.id)
      .execute();
    expect(left).toEqual([]);
  });
});
