import type { Locator, Page } from '@playwright/test';
import type { Issue } from '../src/shared/issues.ts';
import type { Server } from '../src/shared/servers.ts';
import { setAccess } from '../src/server/testing/access.ts';
import { closedPort, type Session } from '../src/server/testing/test-server.ts';
import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';

const panel = (page: Page) => page.getByRole('region', { name: 'Selected Client' });

/** The one row of the Issues table that names this text (a title or a client). */
const rowOf = (page: Page, text: string): Locator =>
  page.getByRole('table', { name: 'Issues' }).getByRole('row').filter({ hasText: text });

/** The signed-in person as the assignee pickers name them (with the email when names repeat). */
async function myOption(staff: Session): Promise<RegExp> {
  const me = await staff.json<{ email: string }>('GET', '/api/me');
  const email = me.body.email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^Grace Staff( \\(${email}\\))?$`);
}

async function seedIssue(staff: Session, input: Record<string, unknown>): Promise<Issue> {
  const response = await staff.json<Issue>('POST', '/api/issues', input);
  expect(response.status).toBe(201);
  return response.body;
}

test('open an issue from /issues, comment, assign, resolve and reopen it', async ({
  page,
  staff,
}) => {
  await seedClient(staff, { name: 'Issue Co', code: 'ISS' });
  const me = await myOption(staff);
  // Who wrote or resolved is named by email, as history names people; an assignee by name.
  const { email } = (await staff.json<{ email: string }>('GET', '/api/me')).body;

  await page.goto('/issues');
  await expect(page.getByRole('heading', { name: 'Issues', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New issue' }).click();
  const dialog = page.getByRole('dialog', { name: 'New issue' });
  await dialog.getByLabel('Client', { exact: true }).fill('Issue Co');
  await page.getByRole('option', { name: 'Issue Co (ISS)' }).click();
  await dialog.getByRole('radio', { name: 'Problem' }).check();
  await dialog.getByLabel('Title', { exact: true }).fill('Backups stopped on Issue Co');
  await dialog
    .getByLabel('Text', { exact: true })
    .fill('The nightly job has not run since Monday.\n<b>not bold</b>');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Issue opened.')).toBeVisible();

  // Its page: state, kind, client, author and the text as it was typed.
  await expect(
    page.getByRole('heading', { name: 'Backups stopped on Issue Co', level: 1 }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/issues\/[A-Za-z0-9_-]+$/);
  await expect(page.getByText('Open', { exact: true })).toBeVisible();
  await expect(page.getByText('Problem', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Issue Co (ISS)' })).toBeVisible();
  const openedBy = page.getByText('Opened by', { exact: true }).locator('xpath=..');
  await expect(openedBy).toContainText(`Opened by${email}, `);
  await expect(page.getByText('<b>not bold</b>', { exact: false })).toBeVisible();
  await expect(page.locator('b', { hasText: 'not bold' })).toHaveCount(0);

  // A comment, and an empty one refused next to its field.
  const comments = page.getByRole('form', { name: 'Add a comment' });
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByLabel('Comment')).toHaveAttribute('aria-invalid', 'true');
  await expect(comments.getByText('Write a comment')).toBeVisible();
  await comments.getByLabel('Comment').fill('Restarted the job.\nWatching it tonight.');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  const list = page.getByRole('list', { name: 'Comments' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText(email);
  await expect(list).not.toContainText('Grace Staff');
  await expect(list).toContainText('Restarted the job.');
  await expect(comments.getByLabel('Comment')).toHaveValue('');
  await comments.getByLabel('Comment').fill('Ran fine.');
  await comments.getByRole('button', { name: 'Add comment' }).click();
  // Oldest first.
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').last()).toContainText('Ran fine.');

  // Assigned through Edit.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit issue' });
  await expect(edit.getByLabel('Title', { exact: true })).toHaveValue(
    'Backups stopped on Issue Co',
  );
  await edit.getByRole('combobox', { name: 'Assignee' }).click();
  await page.getByRole('option', { name: me }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Issue saved.')).toBeVisible();
  await expect(edit).toHaveCount(0);
  const assignee = page.getByText('Assignee', { exact: true }).locator('xpath=..');
  await expect(assignee).toHaveText('AssigneeGrace Staff');

  // Resolved, then reopened.
  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText('Issue resolved.')).toBeVisible();
  await expect(page.getByText('Resolved', { exact: true })).toBeVisible();
  const resolvedBy = page.getByText('Resolved by', { exact: true }).locator('xpath=..');
  await expect(resolvedBy).toContainText(`Resolved by${email}, `);
  await page.getByRole('button', { name: 'Reopen' }).click();
  await expect(page.getByText('Issue reopened.')).toBeVisible();
  await expect(page.getByText('Open', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resolve' })).toBeVisible();

  // In the list with its kind, client, author, assignee and comment count.
  await page.getByRole('link', { name: 'All issues' }).click();
  const row = rowOf(page, 'Backups stopped on Issue Co');
  await expect(row).toContainText('Problem');
  await expect(row).toContainText('Issue Co (ISS)');
  await expect(row).toContainText(email);
  await expect(row).toContainText('Grace Staff');
  await expect(row.getByRole('cell').last()).toHaveText('2');
});

test('filters: state, kind, assignee and search, kept in the address', async ({ page, staff }) => {
  const client = await seedClient(staff, { name: 'Filter Co', code: 'FLT' });
  const meId = (await staff.json<{ id: string }>('GET', '/api/me')).body.id;
  await seedIssue(staff, {
    clientId: client.id,
    kind: 'problem',
    title: 'Filter problem mine',
    assigneeId: meId,
  });
  await seedIssue(staff, { clientId: client.id, kind: 'note', title: 'Filter note open' });
  const done = await seedIssue(staff, {
    clientId: client.id,
    kind: 'note',
    title: 'Filter note resolved',
  });
  expect((await staff.json('POST', `/api/issues/${done.id}/resolve`)).status).toBe(200);

  await page.goto('/issues');
  await page.getByLabel('Search issues').fill('Filter Co');
  const table = page.getByRole('table', { name: 'Issues' });
  // Open issues by default: the resolved one is not listed.
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(page).toHaveURL(/[?&]q=Filter\+Co/);
  await expect(rowOf(page, 'Filter note resolved')).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Problems', exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(rowOf(page, 'Filter problem mine')).toBeVisible();
  await expect(page).toHaveURL(/[?&]kind=problem/);

  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Any kind', exact: true }).click();
  await page.getByRole('combobox', { name: 'Assignee' }).click();
  await page.getByRole('option', { name: 'Assigned to me', exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(rowOf(page, 'Filter problem mine')).toBeVisible();
  await expect(page).toHaveURL(/[?&]assignee=me/);

  await page.getByRole('combobox', { name: 'Assignee' }).click();
  await page.getByRole('option', { name: 'Anyone', exact: true }).click();
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'Resolved', exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(rowOf(page, 'Filter note resolved')).toContainText('Resolved');
  await expect(page).toHaveURL(/[?&]state=resolved/);

  // A reload keeps the filters.
  await page.reload();
  await expect(page.getByLabel('Search issues')).toHaveValue('Filter Co');
  await expect(page.getByRole('combobox', { name: 'State' })).toHaveValue('Resolved');
  await expect(table.getByRole('row')).toHaveCount(2);

  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'All', exact: true }).click();
  await expect(table.getByRole('row')).toHaveCount(4);
  await page.getByLabel('Search issues').fill('Filter Co nothing like this');
  await expect(page.getByText('No issue matches.')).toBeVisible();
});

test('open an issue from the client panel, about one of its apps and servers', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, {
    name: 'Panel Issue Co',
    code: 'PIC',
    server: { host: 'prod.pic.example', username: 'deploy' },
  });
  const staging = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'staging',
    host: 'staging.pic.example',
  });
  expect(staging.status).toBe(201);
  const app = await staff.json('POST', '/api/apps', {
    clientId: client.id,
    serverId: staging.body.id,
    name: 'shop-web',
  });
  expect(app.status).toBe(201);

  await page.goto(`/clients/${client.id}`);
  const p = panel(page);
  await expect(p.getByText('No open issues')).toBeVisible();
  await p.getByRole('button', { name: 'New issue' }).click();
  const dialog = page.getByRole('dialog', { name: 'New issue' });
  await expect(dialog.getByLabel('Client', { exact: true })).toHaveValue('Panel Issue Co (PIC)');
  // Errors next to the fields: no title.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Enter a title')).toBeVisible();
  // An app runs on one server: choosing it chooses that server too.
  await dialog.getByRole('combobox', { name: 'App' }).click();
  await page.getByRole('option', { name: 'shop-web', exact: true }).click();
  await expect(dialog.getByRole('combobox', { name: 'Server' })).toHaveValue('staging');
  await dialog.getByLabel('Title', { exact: true }).fill('Staging certificate expires soon');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Issue opened.')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // Listed in the panel (it stays on the client), linking to its page.
  const open = p.getByRole('list', { name: 'Open issues' });
  await expect(open.getByRole('listitem')).toHaveCount(1);
  await expect(open).toContainText('Note');
  await expect(open).toContainText('shop-web on staging');
  await open.getByRole('link', { name: 'Staging certificate expires soon' }).click();
  await expect(
    page.getByRole('heading', { name: 'Staging certificate expires soon', level: 1 }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'staging', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'shop-web', exact: true })).toBeVisible();

  // Resolved, it leaves the panel.
  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByText('Issue resolved.')).toBeVisible();
  await page.getByRole('link', { name: 'Panel Issue Co (PIC)' }).click();
  await expect(panel(page).getByText('No open issues')).toBeVisible();
});

test('a stale edit of an issue says someone else changed it', async ({ page, staff }) => {
  const client = await seedClient(staff, { name: 'Stale Issue Co', code: 'SIC' });
  const issue = await seedIssue(staff, { clientId: client.id, title: 'Stale title' });
  await page.goto(`/issues/${issue.id}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit issue' });
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveValue('Stale title');
  // A colleague saves first.
  const other = await staff.json('PUT', `/api/issues/${issue.id}`, {
    serverId: null,
    appId: null,
    kind: 'note',
    title: 'Their title',
    text: '',
    assigneeId: null,
    version: issue.version,
  });
  expect(other.status).toBe(200);
  await dialog.getByLabel('Title', { exact: true }).fill('My title');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText('The issue was not saved');
  await expect(alert).toContainText(/changed/);
  await expect(dialog).toBeVisible();
});

test('the system opens a problem when a check finds a server unreachable', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Unreachable Co', code: 'UNR' });
  // Nothing listens on a port just found free: the check is refused at once, then retried.
  const server = await staff.json<Server>('POST', '/api/servers', {
    clientId: client.id,
    label: 'closed',
    host: '127.0.0.1',
    port: await closedPort(),
    username: 'deploy',
  });
  expect(server.status).toBe(201);
  await page.goto(`/clients/${client.id}`);
  await expect(panel(page).getByText('No open issues')).toBeVisible();

  const checked = await staff.json<Server>('POST', `/api/servers/${server.body.id}/check`);
  expect(checked.status).toBe(200);
  expect(checked.body.status).toBe('unreachable');

  // The live stream brings it to the open panel.
  const open = panel(page).getByRole('list', { name: 'Open issues' });
  await expect(open.getByRole('listitem')).toHaveCount(1);
  await expect(open).toContainText('Problem');
  await expect(open).toContainText('system');

  await page.goto('/issues?kind=problem');
  await page.getByLabel('Search issues').fill('Unreachable Co');
  await expect(page).toHaveURL(/[?&]q=Unreachable\+Co/);
  const row = rowOf(page, 'Unreachable Co (UNR)');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Problem');
  await expect(row).toContainText('closed');
  await expect(row.getByRole('cell').nth(4)).toHaveText('system');
  await row.getByRole('link').first().click();
  await expect(page.getByText('Opened by the system: the server is unreachable.')).toBeVisible();
  await expect(page.getByText(/^system, /)).toBeVisible();
  await page.setViewportSize({ width: 1366, height: 768 });
  await saveScreen(page, 'issues/system-problem-1366x768');
});

test('a viewer reads issues and comments but sees no way to write', async ({
  page,
  staff,
  server,
}) => {
  const client = await seedClient(staff, { name: 'Viewer Issue Co', code: 'VIC' });
  const issue = await seedIssue(staff, {
    clientId: client.id,
    kind: 'problem',
    title: 'Viewer can read this',
  });
  expect(
    (await staff.json('POST', `/api/issues/${issue.id}/comments`, { text: 'A comment' })).status,
  ).toBe(201);
  await setAccess(server, staff, { role: 'viewer' });

  await page.goto('/issues');
  await expect(page.getByRole('link', { name: 'Viewer can read this' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New issue' })).toHaveCount(0);

  await page.goto(`/clients/${client.id}`);
  await expect(panel(page).getByRole('link', { name: 'Viewer can read this' })).toBeVisible();
  await expect(panel(page).getByRole('button', { name: 'New issue' })).toHaveCount(0);

  await page.goto(`/issues/${issue.id}`);
  await expect(page.getByRole('list', { name: 'Comments' })).toContainText('A comment');
  for (const name of ['Edit', 'Resolve', 'Reopen', 'Add comment']) {
    await expect(page.getByRole('button', { name }), name).toHaveCount(0);
  }
  await expect(page.getByLabel('Comment', { exact: true })).toHaveCount(0);

  // Forced from this very browser, every write is refused.
  const api = page.request;
  const forced = [
    api.post('/api/issues', { data: { clientId: client.id, title: 'Forced' } }),
    api.post(`/api/issues/${issue.id}/resolve`),
    api.post(`/api/issues/${issue.id}/comments`, { data: { text: 'Forced' } }),
  ];
  for (const response of await Promise.all(forced)) {
    expect(response.status(), response.url()).toBe(403);
  }
});
