import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  RUN_LOG_CAP_BYTES,
  RUN_LOG_CAP_LINES,
  RUNS_KEPT_PER_APP,
  type App,
  type Run,
  type RunLogLine,
} from '#shared/apps.ts';
import type { Client } from '#shared/clients.ts';
import type { ClientHistory } from '#shared/events.ts';
import type { Server, ServerList } from '#shared/servers.ts';
import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { startDisconnectingServer } from '#server/testing/disconnecting-ssh-server.ts';
import { shellGate } from '#server/testing/shell-gate.ts';
import { sshKeygen, startSshd, type Sshd } from '#server/testing/sshd.ts';
import { SseReader, type SseMessage } from '#server/testing/sse-reader.ts';
import { signUpVerified, type Session } from '#server/testing/test-server.ts';
import { runProblemKey } from '../issues/problem-issues.ts';
import { SECRET_MASK } from './masker.ts';

/**
 * Runs against Debian's OpenSSH server on 127.0.0.1: 'Deploy' runs the app's command there with
 * the server's SSH key, and its log streams to every reader. Heartbeats and the cancel grace are
 * shortened so the tests wait milliseconds, not seconds.
 */
const t = serveThisFile({
  start: { runs: { heartbeatMs: 200, cancelGraceMs: 500, connectTimeoutMs: 5_000 } },
  staff: {
    admin: { name: 'Ada Admin' },
    editor: { name: 'Ed Editor' },
    viewer: { name: 'Vi Viewer', role: 'viewer' },
    limited: { name: 'Li Limited', tags: ['eu'] },
  },
});

const ACCESS_TOKEN = 'deploy-token-8f3a2c71e5';
const CLIENT_PASSWORD = 'client-password-Zq81xk';
let sshd: Sshd;
let dir: string;
let privateKey = '';
let keyFile = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cm-runs-'));
  keyFile = path.join(dir, 'id');
  await sshKeygen(keyFile, { comment: 'runs test' });
  privateKey = await readFile(keyFile, 'utf8');
  sshd = await startSshd([(await readFile(`${keyFile}.pub`, 'utf8')).trim()]);
  for (const session of [t.staff.admin, t.staff.editor]) {
    const set = await session.json('PUT', '/api/me/access-token', { accessToken: ACCESS_TOKEN });
    expect(set.status).toBe(200);
  }
});
afterAll(async () => {
  await sshd?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let clientCount = 0;

/**
 * A client whose form made a primary server holding its password (the client's stored
 * password), and a second server at the sshd with an SSH key from the vault, checked once so
 * that its host key is pinned. Returns the client and the sshd server.
 */
async function deployableClient(
  as: Session = t.staff.admin,
  target: Sshd = sshd,
  tags: string[] = [],
): Promise<{ client: Client; server: Server }> {
  clientCount += 1;
  const client = await as.json<Client>('POST', '/api/clients', {
    name: `Runs Client ${clientCount}`,
    code: `RC${clientCount}`,
    tags: tags.length > 0 ? tags : [`tag${clientCount}`],
    server: { host: 'primary.example.test', password: CLIENT_PASSWORD },
  });
  expect(client.status).toBe(201);
  const credential = await as.json<{ id: string }>('POST', '/api/credentials', {
    name: `Key ${clientCount}`,
    kind: 'ssh-key',
    privateKey,
  });
  expect(credential.status).toBe(201);
  const server = await as.json<Server>('POST', '/api/servers', {
    clientId: client.body.id,
    label: 'sshd',
    host: target.host,
    port: target.port,
    username: target.username,
    uiDir: dir,
    credentialId: credential.body.id,
  });
  expect(server.status).toBe(201);
  const checked = await as.json<Server>('POST', `/api/servers/${server.body.id}/check`);
  expect(checked.body).toMatchObject({ status: 'reachable', hostKey: await target.hostKey() });
  return { client: client.body, server: checked.body };
}

async function newApp(command: string, as: Session = t.staff.admin): Promise<App> {
  const { client, server } = await deployableClient(as);
  const made = await as.json<App>('POST', '/api/apps', {
    clientId: client.id,
    serverId: server.id,
    name: 'web',
    command,
  });
  expect(made.status).toBe(201);
  return made.body;
}

async function deploy(app: App, as: Session = t.staff.admin) {
  return as.json<Run & { error?: string }>('POST', `/api/apps/${app.id}/runs`);
}

async function openLog(as: Session, runId: string, after?: number): Promise<SseReader> {
  const abort = new AbortController();
  const query = after === undefined ? '' : `?after=${after}`;
  const response = await fetch(`${t.server.url}/api/runs/${runId}/log${query}`, {
    headers: { cookie: as.cookieHeader, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  return new SseReader(response, abort);
}

/** Everything the stream sends up to its run.end: the pieces, and the run it ended with. */
async function readToEnd(reader: SseReader): Promise<{ lines: RunLogLine[]; run: Run }> {
  const messages = await reader.until('run.end', 30_000);
  const end = messages.pop()!;
  return {
    lines: messages.map((m: SseMessage) => JSON.parse(m.data) as RunLogLine),
    run: JSON.parse(end.data) as Run,
  };
}

async function finished(runId: string): Promise<Run> {
  for (;;) {
    const { body } = await t.staff.admin.json<Run>('GET', `/api/runs/${runId}`);
    if (body.state !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function outputOf(lines: RunLogLine[], stream: 'out' | 'err'): string {
  return lines
    .filter((line) => line.stream === stream)
    .map((line) => line.text)
    .join('');
}

/** What a run's log keeps: its stored text, in order, and the log.txt download. */
async function keptLog(runId: string): Promise<{ stored: string; download: string }> {
  const rows = await t.server.app.parts.db.kysely
    .selectFrom('runLog')
    .select('text')
    .where('runId', '=', runId)
    .orderBy('seq')
    .execute();
  const download = await (await t.staff.admin.request('GET', `/api/runs/${runId}/log.txt`)).text();
  return { stored: rows.map((row) => row.text).join(''), download };
}

describe('a run against a real sshd', () => {
  it('streams its lines in order to two readers, a late one too, and ends with the exit code', async (context) => {
    const LINES = 300;
    // The command goes on after its first line only once a reader has that line: a log that
    // reached readers only at the end (or in large batches) would never let it go on.
    const go = shellGate(dir, 'streams-go');
    // 'last' only once a reader has 'oops': the two pipes are read apart, so only that makes
    // the order certain.
    const afterErr = shellGate(dir, 'streams-after-err');
    const app = await newApp(
      `echo first; ${go.wait}; for i in $(seq 1 ${LINES}); do echo line $i; done; echo oops >&2; ${afterErr.wait}; echo last`,
    );
    expect(app).toMatchObject({ effectiveDirectory: dir, lastRun: null });
    const clicked = performance.now();
    const started = await deploy(app);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      appId: app.id,
      state: 'running',
      startedBy: { name: expect.stringContaining('@') },
    });
    const first = await openLog(t.staff.admin, started.body.id);
    const firstLine = await (async () => {
      for (;;) {
        const message = await first.next(10_000);
        if (message.event === 'run.log' && JSON.parse(message.data).stream === 'out') {
          return message;
        }
      }
    })();
    const timeToFirstLine = firstLine.receivedAt - clicked;
    await go.open();
    // A second reader joins once half the lines are out: it gets them all, from the first.
    const late = await (async () => {
      for (;;) {
        const message = await first.next(10_000);
        if (message.data.includes(`line ${LINES / 2}\\n`))
          return openLog(t.staff.editor, started.body.id);
      }
    })();
    const oopsRead = async () => {
      await vi.waitFor(
        () => expect(first.messages.some((m) => m.data.includes('"oops\\n"'))).toBe(true),
        { timeout: 30_000 },
      );
      await afterErr.open();
    };
    const [a, b] = await Promise.all([readToEnd(first), readToEnd(late), oopsRead()]);
    const aLines = [JSON.parse(firstLine.data) as RunLogLine, ...a.lines];
    // The first reader read some before `a` began: compare from the reader's whole record.
    const allA = first.messages
      .filter((m) => m.event === 'run.log')
      .map((m) => JSON.parse(m.data) as RunLogLine);
    expect(allA.map((l) => l.seq)).toEqual(allA.map((_, i) => i + 1));
    expect(b.lines).toEqual(allA);
    expect(aLines.at(-1)).toEqual(allA.at(-1));
    const expected = ['first', ...Array.from({ length: LINES }, (_, i) => `line ${i + 1}`), 'last'];
    expect(outputOf(allA, 'out')).toBe(`${expected.join('\n')}\n`);
    expect(outputOf(allA, 'err')).toBe('oops\n');
    // stderr's line came after the loop's and before 'last'.
    const texts = allA.map((l) => l.text);
    expect(texts.indexOf('oops\n')).toBeGreaterThan(texts.indexOf(`line ${LINES}\n`));
    expect(texts.indexOf('oops\n')).toBeLessThan(texts.indexOf('last\n'));
    expect(allA.at(-1)).toMatchObject({
      stream: 'system',
      text: expect.stringMatching(/^Exited with code 0 after/),
    });
    for (const end of [a.run, b.run]) {
      expect(end).toMatchObject({
        id: started.body.id,
        state: 'succeeded',
        exitCode: 0,
        reason: null,
      });
      expect(end.durationMs).toBeGreaterThanOrEqual(500);
    }
    expect(first.ended || (await first.next(2_000).catch(() => 'ended'))).toBeTruthy();

    // A reader resuming after a piece gets only the ones after it, then the end.
    const resumed = await readToEnd(await openLog(t.staff.admin, started.body.id, 5));
    expect(resumed.lines).toEqual(allA.slice(5));

    // The plain-text download holds the same, in order.
    const text = await t.staff.admin.request('GET', `/api/runs/${started.body.id}/log.txt`);
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe(allA.map((l) => l.text).join(''));

    const shown = await t.staff.admin.json<App>('GET', `/api/apps/${app.id}`);
    expect(shown.body.lastRun).toMatchObject({ id: started.body.id, state: 'succeeded' });
    const runs = await t.staff.admin.json<{ runs: Run[] }>('GET', `/api/apps/${app.id}/runs`);
    expect(runs.body.runs.map((r) => r.id)).toEqual([started.body.id]);

    await context.annotate(
      `[runs] ${LINES + 3} output lines (${allA.length} pieces) streamed to 2 readers; first line ${timeToFirstLine.toFixed(0)} ms after 'Deploy'`,
      'measurement',
    );

    // Every step is an event of the client's history, naming the app and the run.
    const history = await t.staff.admin.json<ClientHistory>(
      'GET',
      `/api/clients/${app.client.id}/history`,
    );
    const ofRun = history.body.events.filter((e) => e.runId === started.body.id);
    expect(ofRun.map((e) => [e.kind, e.fields])).toEqual([
      ['run.ended', ['state:succeeded']],
      ['run.started', []],
    ]);
    for (const event of ofRun) {
      expect(event).toMatchObject({
        appId: app.id,
        clientId: app.client.id,
        serverId: app.server!.id,
      });
    }
    expect(history.body.events.some((e) => e.kind === 'app.created' && e.appId === app.id)).toBe(
      true,
    );
  }, 60_000);

  it("runs in the app's directory, else the server's uiDir, and nowhere else when it is missing", async () => {
    // No directory of its own: the server's uiDir (`dir`).
    const app = await newApp('pwd');
    expect(app.effectiveDirectory).toBe(dir);
    const inUiDir = await readToEnd(await openLog(t.staff.admin, (await deploy(app)).body.id));
    expect(outputOf(inUiDir.lines, 'out')).toBe(`${await realpath(dir)}\n`);
    expect(inUiDir.lines.map((line) => line.text)).toContain(`In ${dir}\n`);

    // Its own, with a space and a quote in the name: one word to the shell.
    const own = path.join(dir, "app's dir");
    await mkdir(own);
    const edit = async (directory: string, command: string, version: number) => {
      const saved = await t.staff.admin.json<App>('PUT', `/api/apps/${app.id}`, {
        name: app.name,
        serverId: app.server!.id,
        directory,
        command,
        version,
      });
      expect(saved.status).toBe(200);
      return saved.body;
    };
    const moved = await edit(own, 'pwd', app.version);
    const inOwn = await readToEnd(await openLog(t.staff.admin, (await deploy(moved)).body.id));
    expect(outputOf(inOwn.lines, 'out')).toBe(`${await realpath(own)}\n`);

    // Not there: the run fails saying so, and the command does not run in another folder.
    const missing = await edit(path.join(dir, 'not-there'), 'echo ran; pwd', moved.version);
    const inNone = await readToEnd(await openLog(t.staff.admin, (await deploy(missing)).body.id));
    expect(inNone.run).toMatchObject({ state: 'failed', exitCode: 1 });
    expect(outputOf(inNone.lines, 'out')).toBe('');
    expect(outputOf(inNone.lines, 'err')).toContain('not-there');
  }, 60_000);

  it("refuses to start in a directory stored starting with '-', and records no run", async () => {
    const app = await newApp('pwd');
    // As a row stored before the rule, or written to the database directly, would be.
    await t.server.app.parts.db.kysely
      .updateTable('app')
      .set({ directory: '-' })
      .where('id', '=', app.id)
      .execute();
    const refused = await deploy(app);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(
      "The directory it runs in (the app's, or its server's UI directory) starts with '-', which the command would take for an option. Edit it to remove the '-'.",
    );
    const runs = await t.staff.admin.json<{ runs: Run[] }>('GET', `/api/apps/${app.id}/runs`);
    expect(runs.body.runs).toEqual([]);
  });

  it('refuses to run a command stored with a hidden character, and records no run', async () => {
    const app = await newApp('echo ok');
    // Reads as `echo ok {serverTag} rm -rf ;#` would, reversed by U+202E.
    await t.server.app.parts.db.kysely
      .updateTable('app')
      .set({ command: 'echo ok \u202e#; dm- mr {serverTag}' })
      .where('id', '=', app.id)
      .execute();
    const refused = await deploy(app);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(
      'No deploy command: the command contains a hidden control character (U+202E). Edit it to remove the character.',
    );
    const runs = await t.staff.admin.json<{ runs: Run[] }>('GET', `/api/apps/${app.id}/runs`);
    expect(runs.body.runs).toEqual([]);
  });

  it('a failing command ends failed and opens one issue, which the next success resolves', async () => {
    const marker = path.join(dir, `fail-${Date.now()}`);
    // Fails while the marker file is missing; succeeds once it is there.
    const app = await newApp(`echo trying; test -e ${marker} || exit 3`);
    const db = t.server.app.parts.db.kysely;
    const issues = () =>
      db
        .selectFrom('issue')
        .select(['state', 'title', 'authorName'])
        .where('problemKey', '=', runProblemKey(app.id))
        .execute();

    const one = await deploy(app);
    expect(await finished(one.body.id)).toMatchObject({
      state: 'failed',
      exitCode: 3,
      reason: null,
    });
    expect(await issues()).toEqual([
      { state: 'open', title: 'Deploy of web failed', authorName: 'system' },
    ]);
    // Failing again while the issue is open opens no second one.
    const two = await deploy(app);
    expect(await finished(two.body.id)).toMatchObject({ state: 'failed', exitCode: 3 });
    expect(await issues()).toHaveLength(1);

    await writeFile(marker, '');
    const three = await deploy(app);
    expect(await finished(three.body.id)).toMatchObject({ state: 'succeeded', exitCode: 0 });
    expect(await issues()).toEqual([
      { state: 'resolved', title: 'Deploy of web failed', authorName: 'system' },
    ]);
  }, 60_000);

  it('cancel stops a running command; the run ends cancelled', async () => {
    const app = await newApp('echo started; sleep 30; echo never');
    const run = await deploy(app);
    const reader = await openLog(t.staff.admin, run.body.id);
    for (;;) {
      const message = await reader.next(10_000);
      if (message.data.includes('started\\n')) break;
    }
    const asked = performance.now();
    const cancel = await t.staff.editor.json<Run>('POST', `/api/runs/${run.body.id}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.cancelRequestedAt).not.toBeNull();
    const { lines, run: ended } = await readToEnd(reader);
    const tookMs = performance.now() - asked;
    expect(ended).toMatchObject({ state: 'cancelled' });
    expect(outputOf(lines, 'out')).not.toContain('never');
    expect(lines.at(-1)!.text).toMatch(/^Cancelled by .*@.* after/);
    // As root, OpenSSH does not pass the signal on: the log says the command may run on.
    if (process.getuid?.() === 0) expect(lines.at(-1)!.text).toContain('may still be running');
    // TERM, or (as root, whom OpenSSH will not signal) the connection closed after the grace;
    // either well before the 30 s sleep would have ended.
    expect(tookMs).toBeLessThan(15_000);
    const again = await t.staff.editor.json<{ error: string }>(
      'POST',
      `/api/runs/${run.body.id}/cancel`,
    );
    expect(again.status).toBe(409);
    const history = await t.staff.admin.json<ClientHistory>(
      'GET',
      `/api/clients/${app.client.id}/history`,
    );
    expect(history.body.events.filter((e) => e.runId === run.body.id).map((e) => e.kind)).toEqual([
      'run.ended',
      'run.cancel_requested',
      'run.started',
    ]);
    expect(history.body.events.find((e) => e.kind === 'run.ended')!.fields).toEqual([
      'state:cancelled',
    ]);
  }, 60_000);

  it('ends a reader’s log stream once the client leaves their tags or they sign out', async () => {
    const go = shellGate(dir, 'access-go');
    const { client, server } = await deployableClient(t.staff.admin, sshd, ['eu']);
    const app = await t.staff.admin.json<App>('POST', '/api/apps', {
      clientId: client.id,
      serverId: server.id,
      name: 'web',
      // The log shows the command: the quotes keep the word it prints out of that line.
      command: `echo first; ${go.wait}; echo sec""ond`,
    });
    const run = await deploy(app.body);
    const leaving = await signUpVerified(t.server);
    const readers = {
      admin: await openLog(t.staff.admin, run.body.id),
      limited: await openLog(t.staff.limited, run.body.id),
      leaving: await openLog(leaving, run.body.id),
    };
    for (const reader of Object.values(readers)) {
      for (;;) if ((await reader.next(10_000)).data.includes('first\\n')) break;
    }
    const retagged = await t.staff.admin.json('PUT', `/api/clients/${client.id}`, {
      name: client.name,
      code: client.code,
      tags: ['us'],
      version: client.version,
    });
    expect(retagged.status).toBe(200);
    expect((await leaving.json('POST', '/api/auth/sign-out', {})).status).toBe(200);
    await go.open();

    expect(outputOf((await readToEnd(readers.admin)).lines, 'out')).toBe('second\n');
    for (const reader of [readers.limited, readers.leaving]) {
      await expect(reader.until('run.end', 10_000)).rejects.toThrow('stream ended');
      expect(reader.raw).not.toContain('second');
    }
  }, 60_000);

  it('refuses a second run of the app while one runs, naming who runs it', async () => {
    const app = await newApp('echo busy; sleep 30', t.staff.editor);
    const me = await t.staff.editor.json<{ email: string }>('GET', '/api/me');
    const first = await deploy(app, t.staff.editor);
    expect(first.status).toBe(201);
    const second = await deploy(app, t.staff.admin);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(
      new RegExp(
        `^${me.body.email.replaceAll('.', '\\.')} is running this app since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
      ),
    );
    // Nor can the app be removed while it runs.
    const removed = await t.staff.admin.json<{ error: string }>('DELETE', `/api/apps/${app.id}`);
    expect(removed.status).toBe(409);
    await t.staff.admin.json('POST', `/api/runs/${first.body.id}/cancel`);
    expect(await finished(first.body.id)).toMatchObject({ state: 'cancelled' });
    const after = await deploy(app, t.staff.admin);
    expect(after.status).toBe(201);
    await t.staff.admin.json('POST', `/api/runs/${after.body.id}/cancel`);
    await finished(after.body.id);
    expect((await t.staff.admin.request('DELETE', `/api/apps/${app.id}`)).status).toBe(204);
  }, 60_000);

  it('runs only the version of the app the person confirmed', async () => {
    const app = await newApp('echo first');
    const changed = await t.staff.admin.json<App>('PUT', `/api/apps/${app.id}`, {
      name: app.name,
      serverId: app.server!.id,
      command: 'echo second',
      version: app.version,
    });
    expect(changed.status).toBe(200);
    const start = (version: number) =>
      t.staff.admin.json<Run & { error?: string }>('POST', `/api/apps/${app.id}/runs`, {
        version,
      });

    const stale = await start(app.version);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(
      'The app was changed since you confirmed it: read its command again, then deploy',
    );
    const none = await t.staff.admin.json<{ runs: Run[] }>('GET', `/api/apps/${app.id}/runs`);
    expect(none.body.runs).toEqual([]);

    const current = await start(changed.body.version);
    expect(current.status).toBe(201);
    expect(current.body.command).toContain('echo second');
    expect(await finished(current.body.id)).toMatchObject({ state: 'succeeded', exitCode: 0 });
  });

  it('runs only where the person confirmed: the server and directory it showed', async () => {
    const app = await newApp('pwd');
    const server = app.server!;
    const read = await t.staff.admin.json<Server>('GET', `/api/servers/${server.id}`);
    const moved = await t.staff.admin.json<Server>('PUT', `/api/servers/${server.id}`, {
      label: read.body.label,
      host: read.body.host,
      port: read.body.port,
      username: read.body.username,
      uiDir: '/tmp',
      private: read.body.private,
      credentialId: read.body.credential?.id ?? null,
      version: read.body.version,
    });
    expect(moved.status).toBe(200);
    const start = (shown: { directory: string; host: string }) =>
      t.staff.admin.json<Run & { error?: string }>('POST', `/api/apps/${app.id}/runs`, {
        version: app.version,
        ...shown,
      });

    const stale = await start({ directory: app.effectiveDirectory, host: server.host });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(
      "The app's server was changed since you confirmed it: read where it runs again, then deploy",
    );
    const elsewhere = await start({ directory: '/tmp', host: 'another.example.test' });
    expect(elsewhere.status).toBe(409);
    const none = await t.staff.admin.json<{ runs: Run[] }>('GET', `/api/apps/${app.id}/runs`);
    expect(none.body.runs).toEqual([]);

    const current = await start({ directory: '/tmp', host: server.host });
    expect(current.status).toBe(201);
    expect(await finished(current.body.id)).toMatchObject({ state: 'succeeded', exitCode: 0 });
  });

  it('masks the access token, the client password and the key in the stored and streamed log', async () => {
    const secretFile = path.join(dir, 'secrets.txt');
    // Secrets split over two writes a moment apart, so they reach the tool in separate chunks.
    await writeFile(secretFile, `token=${ACCESS_TOKEN} password=${CLIENT_PASSWORD}\n`);
    const app = await newApp(
      `echo using {accessToken}; head -c 12 ${secretFile}; sleep 0.3; tail -c +13 ${secretFile}; cat ${keyFile} >&2`,
    );
    const run = await deploy(app);
    expect(run.body.command).toBe(
      `echo using ${SECRET_MASK}; head -c 12 ${secretFile}; sleep 0.3; tail -c +13 ${secretFile}; cat ${keyFile} >&2`,
    );
    const reader = await openLog(t.staff.admin, run.body.id);
    const { lines, run: ended } = await readToEnd(reader);
    expect(ended.state).toBe('succeeded');
    const { stored, download } = await keptLog(run.body.id);
    const keyLines = privateKey
      .split('\n')
      .filter((line) => line.length > 8 && !line.startsWith('-----'));
    expect(keyLines.length).toBeGreaterThan(2);
    const places = {
      streamed: reader.raw,
      stored,
      download,
      command: ended.command,
    };
    for (const [where, text] of Object.entries(places)) {
      for (const secret of [ACCESS_TOKEN, CLIENT_PASSWORD, ...keyLines]) {
        expect(text, `${where} holds a secret`).not.toContain(secret);
      }
    }
    expect(outputOf(lines, 'out')).toBe(
      `using ${SECRET_MASK}\ntoken=${SECRET_MASK} password=${SECRET_MASK}\n`,
    );
    expect(outputOf(lines, 'err')).toContain('-----BEGIN OPENSSH PRIVATE KEY-----');
    expect(outputOf(lines, 'err')).toContain(`\n${SECRET_MASK}\n`);
  }, 60_000);

  it('stores no terminal escape sequences, and masks a secret they split or lean on', async () => {
    const hostile = path.join(dir, 'hostile.txt');
    const [tokenStart, tokenEnd] = [ACCESS_TOKEN.slice(0, 10), ACCESS_TOKEN.slice(10)];
    await writeFile(
      hostile,
      [
        'plain \x1b[31mred\x1b[0m done\n',
        // OSC 52 sets the clipboard of a terminal that prints it.
        '\x1b]52;c;cm0gLXJmIH4=\x07after osc\n',
        '\x1b[2J\x1b[Hcleared\n',
        'bidi \u202eevil\n',
        '10%\r50%\r\x1b[K100%\r\n',
        'tab\there\n',
        // Split by a colour code, the token is whole once the code is cut out.
        `token=${tokenStart}\x1b[0m${tokenEnd}\n`,
        // ESC c is an escape of its own: cut out alone, it would eat the password's first letter.
        `password=\x1b${CLIENT_PASSWORD}\n`,
      ].join(''),
    );
    const app = await newApp(`cat ${hostile}`);
    const run = await deploy(app);
    const { lines, run: ended } = await readToEnd(await openLog(t.staff.admin, run.body.id));
    expect(ended.state).toBe('succeeded');
    const { stored, download } = await keptLog(run.body.id);
    expect(outputOf(lines, 'out')).toBe(
      [
        'plain red done\n',
        'after osc\n',
        'cleared\n',
        'bidi \u202eevil\n',
        '10%\n50%\n100%\n',
        'tab\there\n',
        `token=${SECRET_MASK}\n`,
        // The lone ESC before the mask is kept, for the page to show as a mark.
        `password=\x1b${SECRET_MASK}\n`,
      ].join(''),
    );
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(stored).not.toMatch(/\x1b[[\]]|\r/u);
    // The file holds no control character but tab and newline, nor a bidi control: each is
    // spelled out.
    expect(download).toContain(
      `bidi <U+202E>evil\n10%\n50%\n100%\ntab\there\ntoken=${SECRET_MASK}\npassword=<U+001B>${SECRET_MASK}\n`,
    );
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(download).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/u);
    for (const text of [stored, download, JSON.stringify(lines)]) {
      for (const secret of [ACCESS_TOKEN, CLIENT_PASSWORD, CLIENT_PASSWORD.slice(1), tokenEnd]) {
        expect(text).not.toContain(secret);
      }
    }
  }, 60_000);

  it('masks the secrets in the words a failing server ends the run with', async () => {
    const app = await newApp('echo never runs');
    // The server at the app's address now ends every connection repeating what it learnt.
    const hostile = await startDisconnectingServer(
      `no: ${CLIENT_PASSWORD} and ${ACCESS_TOKEN} are known here`,
    );
    try {
      const db = t.server.app.parts.db.kysely;
      await db
        .updateTable('server')
        .set({ port: (hostile.address() as AddressInfo).port })
        .where('id', '=', app.server!.id)
        .execute();
      const run = await deploy(app);
      const ended = await finished(run.body.id);
      expect(ended).toMatchObject({
        state: 'failed',
        reason: `the server ended the connection, saying “no: ${SECRET_MASK} and ${SECRET_MASK} are known here”`,
      });
      const { stored, download } = await keptLog(run.body.id);
      expect(stored).toContain(`Failed after`);
      const issue = await db
        .selectFrom('issue')
        .select('text')
        .where('problemKey', '=', runProblemKey(app.id))
        .executeTakeFirstOrThrow();
      for (const text of [JSON.stringify(ended), stored, download, issue.text]) {
        expect(text).toContain(SECRET_MASK);
        expect(text).not.toContain(CLIENT_PASSWORD);
        expect(text).not.toContain(ACCESS_TOKEN);
      }
    } finally {
      hostile.close();
    }
  }, 60_000);

  // The end is one write; the database may refuse it for a while (SQLite's write lock held past
  // its busy timeout by a long import, a PostgreSQL outage). Until it is written the app looks
  // busy and its next deploy is refused: it must not stay so until the server restarts.
  it('records its end once the database takes it again, and frees the app', async () => {
    const app = await newApp('echo done');
    const db = t.server.app.parts.db;
    await refuseRunEnds(db, true);
    let runId = '';
    try {
      const run = await deploy(app);
      expect(run.status).toBe(201);
      runId = run.body.id;
      await expect
        .poll(async () => (await keptLog(runId)).stored, { timeout: 30_000, interval: 50 })
        .toMatch(/Exited with code 0 after/);
      expect((await t.staff.admin.json<Run>('GET', `/api/runs/${runId}`)).body.state).toBe(
        'running',
      );
    } finally {
      await refuseRunEnds(db, false);
    }
    expect(await finished(runId)).toMatchObject({ state: 'succeeded', exitCode: 0 });
    const next = await deploy(app);
    expect(next.status).toBe(201);
    expect(await finished(next.body.id)).toMatchObject({ state: 'succeeded' });
  }, 60_000);

  it('keeps the whole log of output holding a NUL byte, which PostgreSQL text refuses', async () => {
    const app = await newApp(`printf 'a\\000b\\n'; echo after`);
    const run = await deploy(app);
    expect(run.status).toBe(201);
    const ended = await finished(run.body.id);
    expect(ended.state).toBe('succeeded');
    const { stored } = await keptLog(run.body.id);
    expect(stored).toContain('$ printf');
    expect(stored).toContain('a\uFFFDb\nafter\n');
    expect(stored).toMatch(/Exited with code 0 after/);
  }, 60_000);

  it('refuses to run with a changed host key, and refuses to start once a check saw it', async () => {
    const own = await startSshd([(await readFile(`${keyFile}.pub`, 'utf8')).trim()]);
    try {
      const { client, server } = await deployableClient(t.staff.admin, own);
      const app = await t.staff.admin.json<App>('POST', '/api/apps', {
        clientId: client.id,
        serverId: server.id,
        name: 'api',
        command: 'echo ran',
      });
      const pinned = await own.hostKey();
      await own.changeHostKey();
      const offered = await own.hostKey();
      const run = await deploy(app.body);
      expect(run.status).toBe(201);
      const ended = await finished(run.body.id);
      expect(ended).toMatchObject({
        state: 'failed',
        reason: `host key changed: the server offered ${offered.algorithm} ${offered.fingerprint}, not the pinned ${pinned.algorithm} ${pinned.fingerprint}`,
      });
      const log = await (
        await t.staff.admin.request('GET', `/api/runs/${run.body.id}/log.txt`)
      ).text();
      // The tool's lines only (connecting, the command, the failure): the command never ran.
      expect(log.split('\n')).not.toContain('ran');
      expect(log).toContain('Failed after');

      // Once a check has seen the new key, a deploy is refused before connecting.
      await t.staff.admin.json('POST', `/api/servers/${server.id}/check`);
      const refused = await deploy(app.body);
      expect(refused.status).toBe(409);
      // It names the one way on that the server's page offers: accepting the new key.
      expect(refused.body.error).toBe(
        "The server's host key changed: if the change is expected, accept the new key on the server's page first",
      );
    } finally {
      await own.close();
    }
  }, 60_000);

  it('keeps 5 MB of a longer output, says where it was cut, and the command runs on', async (context) => {
    // 6 MB in lines of 200 characters, then a line after them that the log no longer keeps.
    const app = await newApp(
      "head -c 6000000 /dev/zero | tr '\\0' x | fold -w 199; echo after-the-flood; exit 4",
    );
    const began = performance.now();
    const run = await deploy(app);
    const ended = await finished(run.body.id);
    const tookMs = performance.now() - began;
    expect(ended).toMatchObject({ state: 'failed', exitCode: 4, logTruncated: true });
    expect(ended.logBytes).toBeGreaterThan(RUN_LOG_CAP_BYTES - 200);
    expect(ended.logBytes).toBeLessThan(RUN_LOG_CAP_BYTES + 2_000);
    const log = await (
      await t.staff.admin.request('GET', `/api/runs/${run.body.id}/log.txt`)
    ).text();
    expect(Buffer.byteLength(log)).toBe(ended.logBytes);
    const tail = log.slice(-400).split('\n').filter(Boolean);
    expect(tail.slice(-2)).toEqual([
      'The log was cut here at 5 MB: the rest of the output is not stored (the command keeps running).',
      expect.stringMatching(/^Exited with code 4 after/),
    ]);
    // Only the command line shown at the top names it: the output after the cut is not kept.
    expect(log.split('\n')).not.toContain('after-the-flood');
    await context.annotate(
      `[runs] 6 MB of output: 5 MB stored and the cut said, run ended in ${(tookMs / 1000).toFixed(1)} s`,
      'measurement',
    );
  }, 120_000);

  it('keeps 50,000 lines of a longer output, and says where it was cut', async () => {
    // A few bytes, and many more lines than a log keeps: one row each.
    const app = await newApp(`yes '' | head -n ${RUN_LOG_CAP_LINES + 5_000}; echo after-them`);
    const run = await deploy(app);
    const ended = await finished(run.body.id);
    expect(ended).toMatchObject({ state: 'succeeded', logTruncated: true });
    const rows = await t.server.app.parts.db.kysely
      .selectFrom('runLog')
      .select(['stream', 'text'])
      .where('runId', '=', run.body.id)
      .orderBy('seq')
      .execute();
    expect(rows.filter((row) => row.stream !== 'system')).toHaveLength(RUN_LOG_CAP_LINES);
    expect(rows.at(-2)).toEqual({
      stream: 'system',
      text: 'The log was cut here at 50,000 lines: the rest of the output is not stored (the command keeps running).\n',
    });
    expect(rows.map((row) => row.text)).not.toContain('after-them\n');
  }, 120_000);

  it('keeps the last 50 runs of an app, with their logs', async () => {
    const app = await newApp('echo kept');
    const db = t.server.app.parts.db.kysely;
    const long = Date.now() - 86_400_000;
    const old = Array.from({ length: RUNS_KEPT_PER_APP }, (_, i) => ({
      id: `old-run-${i}-${app.id}`,
      at: new Date(long + i * 1000).toISOString(),
    }));
    for (const { id, at } of old) {
      await db
        .insertInto('run')
        .values({
          id,
          appId: app.id,
          clientId: app.client.id,
          serverId: app.server!.id,
          state: 'succeeded',
          command: 'echo kept',
          startedById: null,
          startedByName: 'earlier',
          startedAt: at,
          endedAt: at,
          exitCode: 0,
          signal: null,
          reason: null,
          logBytes: 5,
          logTruncated: t.server.config.database.kind === 'postgres' ? false : 0,
          heartbeatAt: at,
          cancelRequestedAt: null,
          cancelRequestedBy: null,
        })
        .execute();
      await db
        .insertInto('runLog')
        .values({ runId: id, seq: 1, stream: 'out', text: 'kept\n', at })
        .execute();
    }
    const run = await deploy(app);
    await finished(run.body.id);
    const runs = await t.staff.admin.json<{ runs: Run[] }>('GET', `/api/apps/${app.id}/runs`);
    expect(runs.body.runs).toHaveLength(RUNS_KEPT_PER_APP);
    expect(runs.body.runs[0]!.id).toBe(run.body.id);
    expect(runs.body.runs.map((r) => r.id)).not.toContain(old[0]!.id);
    const orphanLines = await db
      .selectFrom('runLog')
      .select('runId')
      .where('runId', '=', old[0]!.id)
      .execute();
    expect(orphanLines).toEqual([]);
    // Newest first, a page at a time.
    const page = await t.staff.admin.json<{ runs: Run[]; nextCursor: string | null }>(
      'GET',
      `/api/apps/${app.id}/runs?limit=20`,
    );
    expect(page.body.runs.map((r) => r.id)).toEqual(runs.body.runs.slice(0, 20).map((r) => r.id));
    const next = await t.staff.admin.json<{ runs: Run[] }>(
      'GET',
      `/api/apps/${app.id}/runs?limit=20&cursor=${page.body.nextCursor}`,
    );
    expect(next.body.runs.map((r) => r.id)).toEqual(runs.body.runs.slice(20, 40).map((r) => r.id));
  }, 60_000);

  it('refuses a deploy until the server is checked (no pinned host key)', async () => {
    const client = await t.staff.admin.json<Client>('POST', '/api/clients', {
      name: 'Unchecked Runs',
      server: {
        host: sshd.host,
        port: sshd.port,
        username: sshd.username,
        password: 'pw-unchecked',
      },
    });
    const [server] = (
      await t.staff.admin.json<ServerList>('GET', `/api/servers?clientId=${client.body.id}`)
    ).body.servers;
    const app = await t.staff.admin.json<App>('POST', '/api/apps', {
      clientId: client.body.id,
      serverId: server!.id,
      name: 'web',
    });
    expect(app.body).toMatchObject({
      command: null,
      effectiveCommand: t.server.config.appRunTemplate,
      effectiveDirectory: '',
    });
    const refused = await deploy(app.body);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('Check the server first so its host key is pinned');
  });
});

describe("the README's deploy from a script", () => {
  it('a write token starts a deploy, follows its log to the end and reads how it went', async () => {
    const app = await newApp('echo first; echo second');
    const created = await t.staff.admin.json<{ secret: string }>('POST', '/api/me/tokens', {
      name: 'deploy script',
      scope: 'write',
      expiresInDays: 30,
    });
    expect(created.status).toBe(201);
    const auth = { authorization: `Bearer ${created.body.secret}` };

    // run=$(curl -s -X POST -H "$AUTH" "$API/apps/$APP_ID/runs" | jq -r .id)
    const started = await fetch(`${t.server.url}/api/apps/${app.id}/runs`, {
      method: 'POST',
      headers: auth,
    });
    expect(started.status).toBe(201);
    const run = (await started.json()) as Run;

    // curl -sN -H "$AUTH" "$API/runs/$run/log" | sed -n 's/^data: //p' | jq -j '.text // empty'
    const log = await fetch(`${t.server.url}/api/runs/${run.id}/log`, { headers: auth });
    expect(log.status).toBe(200);
    // The stream closes by itself after run.end, so reading it whole ends.
    const body = await log.text();
    const pieces = body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { text?: string });
    const output = pieces.map((piece) => piece.text ?? '').join('');
    expect(output).toContain('first\nsecond\n');

    // curl -s -H "$AUTH" "$API/runs/$run" | jq '{state, exitCode, durationMs}'
    const ended = await fetch(`${t.server.url}/api/runs/${run.id}`, { headers: auth });
    expect(await ended.json()).toMatchObject({
      state: 'succeeded',
      exitCode: 0,
      durationMs: expect.any(Number),
    });
  }, 60_000);
});

describe('who may deploy and see runs', () => {
  it('a viewer sees runs but cannot start one; a person limited by tags sees none of another client', async () => {
    const app = await newApp('echo hello');
    const run = await deploy(app);
    await finished(run.body.id);

    expect((await deploy(app, t.staff.viewer)).status).toBe(403);
    expect((await t.staff.viewer.request('POST', `/api/runs/${run.body.id}/cancel`)).status).toBe(
      403,
    );
    expect((await t.staff.viewer.json('GET', `/api/runs/${run.body.id}`)).status).toBe(200);
    const viewerRuns = await t.staff.viewer.json<{ runs: Run[] }>(
      'GET',
      `/api/apps/${app.id}/runs`,
    );
    expect(viewerRuns.body.runs).toHaveLength(1);

    const limited = t.staff.limited;
    for (const url of [
      `/api/apps/${app.id}`,
      `/api/apps/${app.id}/runs`,
      `/api/runs/${run.body.id}`,
      `/api/runs/${run.body.id}/log`,
      `/api/runs/${run.body.id}/log.txt`,
    ]) {
      const response = await limited.request('GET', url);
      expect(response.status, url).toBe(404);
      await response.body?.cancel();
    }
    expect((await deploy(app, limited)).status).toBe(404);
    expect((await limited.request('POST', `/api/runs/${run.body.id}/cancel`)).status).toBe(404);
    const list = await limited.json<{ apps: App[] }>('GET', '/api/apps');
    expect(list.body.apps.map((a) => a.id)).not.toContain(app.id);

    // Their own client's app they see and run.
    const own = await deployableClient(t.staff.admin, sshd, ['eu']);
    const ownApp = await limited.json<App>('POST', '/api/apps', {
      clientId: own.client.id,
      serverId: own.server.id,
      name: 'eu-web',
      command: 'echo eu',
    });
    expect(ownApp.status).toBe(201);
    expect(
      (await limited.json<{ apps: App[] }>('GET', '/api/apps')).body.apps.map((a) => a.id),
    ).toEqual([ownApp.body.id]);
  }, 60_000);
});

/** Makes the database refuse (or take again) any write that ends a run, as a trigger. */
async function refuseRunEnds(db: Db, refuse: boolean): Promise<void> {
  const statements =
    db.dialect === 'sqlite'
      ? refuse
        ? [
            `create trigger refuse_run_end before update of state on run when new.state <> 'running' begin select raise(abort, 'run ends refused by the test'); end`,
          ]
        : ['drop trigger refuse_run_end']
      : refuse
        ? [
            `create function refuse_run_end() returns trigger language plpgsql as $$ begin raise exception 'run ends refused by the test'; end $$`,
            `create trigger refuse_run_end before update of state on run for each row when (new.state <> 'running') execute function refuse_run_end()`,
          ]
        : ['drop trigger refuse_run_end on run', 'drop function refuse_run_end()'];
  for (const statement of statements) await sql.raw(statement).execute(db.kysely);
}
