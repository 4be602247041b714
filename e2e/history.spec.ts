import type { Page } from '@playwright/test';
import { signUpVerified, uniqueEmail } from '../src/server/testing/test-server.ts';
import type { Client } from '../src/shared/clients.ts';
import { test, expect, seedClient } from './fixtures.ts';

const historyItems = (page: Page) =>
  page
    .getByRole('region', { name: 'Selected Client' })
    .getByRole('list', { name: 'History' })
    .getByRole('listitem');

test('history shows who created, edited which fields and read the password, newest first, live', async ({
  page,
  staff,
  server,
}) => {
  const colleague = await signUpVerified(server, {
    name: 'Bob Colleague',
    email: uniqueEmail('bob'),
  });
  const client = await seedClient(staff, { name: 'Acme', server: { password: 'old-secret-1' } });
  const edit = await colleague.json<Client>('PUT', `/api/clients/${client.id}`, {
    name: 'Acme Ltd',
    server: { password: 'new-secret-2' },
    version: 1,
  });
  expect(edit.status).toBe(200);

  await page.goto(`/clients/${client.id}`);
  await expect(historyItems(page)).toHaveText([
    /^bob-\S+@example\.test edited name and password.*\d{4}/,
    /^grace-\S+@example\.test created it/,
  ]);
  await expect(page.getByRole('list', { name: 'History' })).not.toContainText('secret');

  await page.getByRole('button', { name: 'Reveal password' }).click();
  await expect(historyItems(page).first()).toHaveText(/^grace-\S+@example\.test read the password/);

  // A colleague's change arrives without a reload.
  await colleague.json('PUT', `/api/clients/${client.id}`, {
    name: 'Acme Ltd',
    tags: ['eu'],
    version: 2,
  });
  await expect(historyItems(page)).toHaveCount(4);
  await expect(historyItems(page).first()).toHaveText(/^bob-\S+@example\.test edited tags/);
});

test('a duplicate’s history links to the original', async ({ page, staff }) => {
  const client = await seedClient(staff, { name: 'Source' });
  const copy = await staff.json<Client>('POST', `/api/clients/${client.id}/duplicate`);
  await page.goto(`/clients/${copy.body.id}`);
  await expect(historyItems(page)).toHaveText([
    /^grace-\S+@example\.test created it as a duplicate of the original/,
  ]);
  await historyItems(page).getByRole('link', { name: 'the original' }).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}$`));
  await expect(page.getByRole('heading', { name: 'Source' })).toBeVisible();
});

test('Copy password copies it without showing it, and the read is in the history', async ({
  page,
  staff,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const client = await seedClient(staff, {
    name: 'Vault',
    server: { password: 'copied-secret-3' },
  });
  await page.goto(`/clients/${client.id}`);
  await page.getByRole('button', { name: 'Copy password' }).click();
  await expect(page.getByText('Password copied to clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('copied-secret-3');
  await expect(page.getByRole('region', { name: 'Selected Client' })).not.toContainText(
    'copied-secret-3',
  );
  await expect(historyItems(page).first()).toHaveText(/^grace-\S+@example\.test read the password/);
});
