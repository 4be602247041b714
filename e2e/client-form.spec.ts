import { test, expect, seedClient } from './fixtures.ts';
import { saveScreen } from './screens.ts';

test('tags are chips; the first is marked as the deploy server and can be removed', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, { name: 'Chips', tags: ['eu-west-1', 'shop'] });
  await page.goto(`/clients/${client.id}`);
  await page.getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await expect(page.getByText('The first, eu-west-1, selects the deploy server.')).toBeVisible();
  // Typing a comma ends a tag, as in the original's comma-separated field.
  await tags.pressSequentially('web,');
  await expect(page.getByRole('button', { name: 'Remove tag web' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove tag eu-west-1' }).click();
  await expect(page.getByText('The first, shop, selects the deploy server.')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  const saved = await staff.json<{ tags: string[] }>('GET', `/api/clients/${client.id}`);
  expect(saved.body.tags).toEqual(['shop', 'web']);
});

test('domains are a list of URLs: add, remove, and a bad one is named at its input', async ({
  page,
  staff,
}) => {
  const client = await seedClient(staff, {
    name: 'Domains',
    domains: ['https://a.example', 'https://b.example'],
  });
  await page.goto(`/clients/${client.id}`);
  await page.getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const domains = page.getByRole('group', { name: 'Domains' });
  await expect(domains.getByRole('textbox', { name: 'Domain 2' })).toHaveValue('https://b.example');
  await domains.getByRole('button', { name: 'Remove domain 1' }).click();
  await domains.getByRole('button', { name: 'Add domain' }).click();
  await domains.getByRole('textbox', { name: 'Domain 2' }).fill('ftp://files.example');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(domains.getByRole('textbox', { name: 'Domain 2' })).toHaveAccessibleDescription(
    'Must be an http:// or https:// URL',
  );
  await expect(page.getByText('Client Saved!')).toHaveCount(0);
  await domains.getByRole('textbox', { name: 'Domain 2' }).fill('http://c.example/path');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(panel.getByRole('link', { name: 'http://c.example/path' })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'https://a.example' })).toHaveCount(0);
});

test('editing keeps a stored password unless asked to remove it', async ({ page, staff }) => {
  const client = await seedClient(staff, {
    name: 'Vaulted',
    server: { host: 'vault.example', password: 'old-secret' },
  });
  const hasPassword = async () =>
    (await staff.json<{ server: { hasPassword: boolean } }>('GET', `/api/clients/${client.id}`))
      .body.server.hasPassword;
  const edit = async () => {
    await page.getByRole('button', { name: 'Client actions' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
  };
  await page.goto(`/clients/${client.id}`);

  await edit();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute(
    'placeholder',
    'Unchanged',
  );
  // A typed password must be long enough for run logs to hide it: said at the field.
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('abc');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(password).toHaveAccessibleDescription(
    /Must be at least 4 characters, so that run logs can hide it/,
  );
  await saveScreen(page, 'client-form/short-password');
  await password.fill('');
  await page.getByLabel('Description', { exact: true }).fill('Kept');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  expect(await hasPassword()).toBe(true);

  await edit();
  await page.getByLabel('Remove the stored password').check();
  await expect(page.getByLabel('Password', { exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!').first()).toBeVisible();
  await expect.poll(hasPassword).toBe(false);
  const panel = page.getByRole('region', { name: 'Selected Client' });
  await expect(panel.getByRole('button', { name: 'Reveal password' })).toHaveCount(0);
});

test('saving over a change made elsewhere is refused with a message, and nothing is lost', async ({
  page,
  staff,
}) => {
  const name = `Contested ${Date.now().toString(36)}`;
  const client = await seedClient(staff, { name, code: 'CON' });
  await page.setViewportSize({ width: 1366, height: 768 });
  // Searched for, so the list shows its row (with the description) whatever the worker left.
  await page.goto(`/clients/${client.id}?q=${encodeURIComponent(name)}`);
  await page.getByRole('button', { name: 'Client actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.getByLabel('Description', { exact: true }).fill('typed in the browser');

  // A colleague saves first, while the form is open; the live feed brings their version in.
  const theirs = await staff.json('PUT', `/api/clients/${client.id}`, {
    name,
    code: 'CON',
    description: 'saved by a colleague',
    version: client.version,
  });
  expect(theirs.status).toBe(200);
  await expect(page.getByText('saved by a colleague')).toBeVisible();

  await page.getByRole('button', { name: 'Save' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The client was not saved' });
  await expect(alert).toContainText('This client was changed by');
  await expect(alert).toContainText('Your changes were not saved: reload it and edit again.');
  // The alert is at the top of the form, the Save button at its bottom: it is brought into view.
  await expect(alert).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('typed in the browser');
  const stored = await staff.json<{ description: string }>('GET', `/api/clients/${client.id}`);
  expect(stored.body.description).toBe('saved by a colleague');

  // The way on: load the saved version into the form, edit it, and save over that version.
  await alert.getByRole('button', { name: 'Load the saved version' }).click();
  await expect(alert).toHaveCount(0);
  const description = page.getByLabel('Description', { exact: true });
  await expect(description).toHaveValue('saved by a colleague');
  await description.fill('saved by a colleague, then by me');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Client Saved!')).toBeVisible();
  const after = await staff.json<{ description: string; version: number }>(
    'GET',
    `/api/clients/${client.id}`,
  );
  expect(after.body).toMatchObject({
    description: 'saved by a colleague, then by me',
    version: client.version + 2,
  });
});
