import os from 'node:os';
import type { Locator, Page } from '@playwright/test';
import type { App } from '../src/shared/apps.ts';
import type { Credential } from '../src/shared/credentials.ts';
import type { Server } from '../src/shared/servers.ts';
import { startSshd, type Sshd } from '../src/server/testing/sshd.ts';
import type { Session } from '../src/server/testing/test-server.ts';
import { expect, seedClient } from './fixtures.ts';

/**
 * An app of a new client on a real sshd, signing in with a new vault key, its host key pinned by
 * a check (a deploy refuses a server whose key is not pinned or has changed).
 */
export async function appOnSshd(staff: Session, code: string, command: string) {
  const key = await staff.json<Credential>('POST', '/api/credentials', {
    name: `apps key ${code}`,
    kind: 'ssh-key',
    generate: 'ed25519',
  });
  expect(key.status).toBe(201);
  const sshd = await startSshd([key.body.publicKey ?? '']);
  const client = await seedClient(staff, { name: `Deploy Co ${code}`, code, tags: ['prod'] });
  const server = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'local',
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    uiDir: os.tmpdir(),
    credentialId: key.body.id,
  });
  expect(server.status).toBe(201);
  const check = await staff.json<Server>('POST', `/api/servers/${server.body.id}/check`);
  expect(check.body.status).toBe('reachable');
  const app = await staff.json<App>('POST', '/api/apps', {
    clientId: client.id,
    name: `app-${code.toLowerCase()}`,
    serverId: server.body.id,
    command,
  });
  expect(app.status).toBe(201);
  return { sshd, app: app.body, client };
}

export async function withSshd<T>(sshd: Sshd, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    await sshd.close();
  }
}

/** The shown run's state, as announced: its badge, then the exit code and duration. */
export const runState = (page: Page) =>
  page
    .getByRole('status')
    .filter({ hasText: /^(Running|Stopping|Succeeded|Failed|Cancelled|Interrupted)/ });

/**
 * The lines of a run's log as shown, each after its stream's mark: 'line 1', 'errline 3',
 * 'sys$ echo line 1; …'. The tool's own lines repeat the command, so a test looks for whole
 * lines of output, never for words anywhere in the log.
 */
export const logLines = (log: Locator) =>
  log.evaluate((box) => Array.from(box.children, (line) => line.textContent ?? ''));

/** One whole line of output (not the command's echo in the tool's own line). */
export const outputLine = (log: Locator, text: string) => log.getByText(text, { exact: true });
