import { test, expect, holdBack, seedClient, signInContext } from './fixtures.ts';
import { transitionsDone } from './transitions.ts';
import type { Page } from '@playwright/test';
import type { Client, ClientList } from '../src/shared/clients.ts';

const panel = (page: Page) => page.getByRole('region', { name: 'Selected Client' });

test('add a client through the form and see every part of the panel', async ({
  page,
  staff,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/settings');
  await page.getByLabel('Access token').fill('tok-XYZ-123');
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByText('Access token saved.')).toBeVisible();

  await page.goto('/');
  await page.getByRole('button', { name: 'Add client' }).click();
  await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
  await expect(page.getByLabel('Port', { exact: true })).toHaveValue('22');
  // Emptied, Port says what it will be (the server's default).
  await expect(page.getByLabel('Port', { exact: true })).toHaveAttribute('placeholder', '22');
  await expect(page.getByLabel('Private', { exact: true })).toBeChecked();
  await page.getByLabel('Name', { exact: true }).fill('Acme Hosting');
  await page.getByLabel('Code', { exact: true }).fill('ACME');
  await page.getByLabel('Description', { exact: true }).fill('Main web shop');
  await page.getByRole('combobox', { name: 'Tags' }).fill('eu-west-1');
  await page.getByRole('combobox', { name: 'Tags' }).press('Enter');
  await page.getByRole('combobox', { name: 'Tags' }).fill('shop');
  await page.getByRole('combobox', { name: 'Tags' }).press('Enter');
  await page.getByLabel('Start date', { exact: true }).fill('2026-11-21');
  await page.getByLabel('Host', { exact: true }).fill('acme.example.com');
  await page.getByLabel('Port', { exact: true }).fill('2222');
  await page.getByLabel('Username', { exact: true }).fill('deploy');
  await page.getByLabel('Password', { exact: true }).fill('hunter2-secret');
  await page.getByLabel('uiDir', { exact: true }).fill('/srv/acme/ui');
  await page.getByRole('textbox', { name: 'Domain 1' }).fill('https://acme.example.com');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await page.getByRole('textbox', { name: 'Domain 2' }).fill('https://shop.acme.example.com');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByText('Client Saved!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add Client' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/clients\/[A-Za-z0-9_-]+$/);

  const list = page
    .getByRole('navigation', { name: 'Clients' })
    .or(page.getByRole('list', { name: 'Clients' }));
  const row = list.getByRole('link', { name: /Acme Hosting \(ACME\)/ });
  // The newest client is last; other tests of this worker may have added some before (more
  // than fit on screen: the list renders only the rows in view, so they are counted by the API).
  const listed = await staff.json<ClientList>('GET', '/api/clients');
  await expect(row).toContainText(`${listed.body.clients.length}.`);
  await expect(row).toContainText('Main web shop');
  await expect(row).toHaveAttribute('aria-current', 'true');

  const p = panel(page);
  await expect(p.getByRole('heading', { name: 'Acme Hosting (ACME)' })).toBeVisible();
  await expect(p.getByText('Main web shop')).toBeVisible();
  await expect(p.getByText('eu-west-1', { exact: true })).toBeVisible();
  await expect(p.getByText('shop', { exact: true })).toBeVisible();
  const json = p.locator('pre').first();
  await expect(json).toContainText('"host": "acme.example.com"');
  await expect(json).toContainText('"port": 2222');
  await expect(json).toContainText('"password": "••••••••"');
  await expect(json).not.toContainText('hunter2-secret');
  await p.getByRole('button', { name: 'Reveal password' }).click();
  await expect(json).toContainText('"password": "hunter2-secret"');

  const domain = p.getByRole('link', { name: 'https://shop.acme.example.com' });
  await expect(domain).toHaveAttribute('target', '_blank');
  await expect(domain).toHaveAttribute('rel', /noopener/);
  await expect(p.getByText('Client since: Nov 21, 2026')).toBeVisible();
  const box = await p.boundingBox();
  expect(Math.round(box!.width)).toBe(610);

  await p.getByRole('button', { name: 'Copy Deploy command' }).click();
  await expect(page.getByText('Command Copied to clipboard!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'pro-deploy run --token tok-XYZ-123 --server eu-west-1',
  );
  await p.getByRole('button', { name: 'Copy SSH command' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'ssh -p 2222 deploy@acme.example.com',
  );
});

test('edit opens the same form prefilled and saves', async ({ page, staff }) => {
  const client = await seedClient(staff, {
    name: 'Globex',
    code: 'GLX',
    tags: 'one, two',
    server: { host: 'g.example', password: 'keep-me' },
  });
  await page.goto(`/clients/${client.id}`);
  await panel(page).getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Globex');
  await expect(page.getByRole('button', { name: 'Remove tag one' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove tag two' })).toBeVisible();
  await expect(page.getByLabel('Host', { exact: true })).toHaveValue('g.example');
  await page.getByLabel('Name', { exact: true }).fill('Globex Corporation');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  await expect(
    panel(page).getByRole('heading', { name: 'Globex Corporation (GLX)' }),
  ).toBeVisible();
  // The untouched password is kept.
  await expect(panel(page).locator('pre').first()).toContainText('"password": "••••••••"');
});

test('a save answered after another client was opened stays on that client', async ({
  page,
  staff,
}) => {
  const first = await seedClient(staff, { name: 'Initech', code: 'INI' });
  const second = await seedClient(staff, { name: 'Hooli', code: 'HOO' });
  await page.goto(`/clients/${first.id}`);
  await panel(page).getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Initech Ltd');
  const release = await holdBack(page, `**/api/clients/${first.id}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: /Hooli/ }).click();
  await expect(panel(page).getByRole('heading', { name: 'Hooli (HOO)' })).toBeVisible();
  release();
  // Said, but the person stays where they went.
  await expect(page.getByText('Client Saved!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/clients/${second.id}(\\?|$)`));
  await expect(panel(page).getByRole('heading', { name: 'Hooli (HOO)' })).toBeVisible();
});

test('a start date left empty is the day it is where the person is, not on the server', async ({
  browser,
  staff,
}) => {
  // A zone whose date differs from UTC's now: 14 hours ahead from 10:00 UTC, 11 behind before.
  const timezoneId = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const context = await browser.newContext({ timezoneId, baseURL: staff.server.url });
  await signInContext(context, staff);
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Add client' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Far Away');
  const startDate = page.getByLabel('Start date', { exact: true });
  const localToday = await startDate.inputValue();
  expect(localToday).not.toBe(new Date().toISOString().slice(0, 10));
  await startDate.clear();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  await expect(page).toHaveURL(/\/clients\/[A-Za-z0-9_-]+$/);
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  const stored = await staff.json<Client>('GET', `/api/clients/${id}`);
  expect(stored.body.startDate.slice(0, 10)).toBe(localToday);
  await context.close();
});

test('bad input is shown at the field and nothing is saved', async ({ page, staff }) => {
  void staff;
  await page.goto('/');
  await page.getByRole('button', { name: 'Add client' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Invalid');
  await page.getByLabel('Port', { exact: true }).fill('70000');
  await page.getByRole('textbox', { name: 'Domain 1' }).fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Must be between 1 and 65535')).toBeVisible();
  await expect(page.getByText('Must be an http:// or https:// URL')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Invalid/ })).toHaveCount(0);
});

test('duplicate and delete ask first, keep the search, then clear the selection', async ({
  page,
  staff,
}) => {
  // A name of this test's own, searched for: the list is virtualized and shared by the
  // worker's tests, so an unfiltered list may hold the clone below the fold.
  const name = `Initech ${Date.now().toString(36)}`;
  const client = await seedClient(staff, { name, code: 'INI' });
  await page.goto(`/clients/${client.id}?q=${encodeURIComponent(name)}`);

  await panel(page).getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  const cloneDialog = page.getByRole('dialog');
  await expect(cloneDialog.getByText('Are you sure you want to clone this client?')).toBeVisible();
  await cloneDialog.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByText('No client selected')).toBeVisible();
  await expect(page).toHaveURL(/\/\?q=Initech/);
  await expect(page.getByRole('searchbox', { name: 'Search clients' })).toHaveValue(name);
  await expect(page.getByRole('link', { name: `${name} (Clone) (INI)` })).toBeVisible();

  await page.getByRole('link', { name: `${name} (INI)` }).click();
  await panel(page).getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const deleteDialog = page.getByRole('dialog');
  await expect(
    deleteDialog.getByText('Are you sure you want to delete this client?'),
  ).toBeVisible();
  // Once it has settled: a click during its opening can land beside the button it will be.
  await transitionsDone(page);
  await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(deleteDialog).toBeHidden();
  await expect(panel(page).getByRole('heading', { name: `${name} (INI)` })).toBeVisible();

  await panel(page).getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No client selected')).toBeVisible();
  await expect(page).toHaveURL(/\/\?q=Initech/);
  await expect(page.getByRole('link', { name: `${name} (INI)` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `${name} (Clone) (INI)` })).toBeVisible();
});

test('the command row says what is missing instead of a broken command', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Untagged', code: 'UNT' });
  await page.goto(`/clients/${client.id}`);
  await expect(
    panel(page).getByText(/No deploy command yet: set your access token in Settings and add a tag/),
  ).toBeVisible();
  await expect(panel(page).getByText('No SSH command yet: add a server host.')).toBeVisible();
});

test('a copy the browser refuses is logged, and no success is claimed', async ({ page, staff }) => {
  const client = await seedClient(staff, {
    name: 'Refused copy',
    code: 'RFC',
    server: { host: 'refused.example', username: 'deploy' },
  });
  // As when the clipboard permission is denied: the browser rejects the write.
  await page.addInitScript(() => {
    navigator.clipboard.writeText = () =>
      Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`/clients/${client.id}`);
  await panel(page).getByRole('button', { name: 'Copy SSH command' }).click();
  await expect.poll(() => errors.join('\n')).toContain('Copy failed');
  await expect(page.getByText('Command Copied to clipboard!')).toHaveCount(0);
  // The command stays on screen, to be selected by hand.
  await expect(panel(page).getByText('ssh -p 22 deploy@refused.example')).toBeVisible();
});
